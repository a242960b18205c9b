/// GoldenImages: compares rendered frames with approved ("golden") PNGs, for
/// this project's regression tests, for `shiftrender verify`, and for users'
/// own XCTest or Swift Testing suites (it is a library product).
///
/// The rule (`GoldenTolerance`): two images match when they have the same size
/// and no channel of any pixel differs by more than `maxChannelDifference`
/// (default 3 of 255). Why that number: the compositor's kernels may round
/// differently by 1 between SIMD widths and releases, which must pass; a view
/// one pixel off moves an edge and changes pixels there by far more than 3, and
/// a 2% alpha error is 5 of 255 — both must fail (the tests prove both).
///
/// On a mismatch the actual frame and a diff image (differences magnified) are
/// written to a failure folder and their paths returned, so a person can look.
/// Goldens are written only on request (`record`), never because one is missing.
public enum GoldenImages {}
