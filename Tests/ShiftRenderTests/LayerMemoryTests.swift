@testable import Compositor
import FramePlan
import Primitives
import Testing

/// The memory a 3-D plane and a backdrop blur take, as the estimate counts them (`LayerMemory`), worked by hand
/// from the compositor's rules (docs/memory.md).
@Suite("Memory estimate: 3-D planes and blurs")
struct LayerMemoryTests {
    /// A 100 x 50 solid under a projection that doubles it (an affine homography, so the numbers come out round).
    static let doubled = DrawItem(
        transform: .identity, shape: RoundedRect(rect: Rect(x: 0, y: 0, width: 100, height: 50)), paint: .solid(.white),
        projection: Homography(affine: .scale(2, 2)))

    @Test("a plane's layer: its base texture and the levels its samplers read, a quarter over, and its flat bitmap")
    func planeWorkedByHand() {
        // Density: the projection's magnification, 2 texels a plane unit. Box: 0...200 x 0...100 texels and 2 of
        // padding each side, 204 x 104. Levels: the map moves 1 texel a pixel, read with one spare (2), so level 1
        // each way: (0,0) 204 x 104, (1,0) 102 x 104, (0,1) 204 x 52, (1,1) 102 x 52, each with a padding row and
        // column, 4 bytes a texel.
        let levels = (205 * 105 + 103 * 105 + 205 * 53 + 103 * 53) * 4
        #expect(levels == 194_656)
        let planes = LayerMemory.planeLayers(DisplayList(items: [Self.doubled]), width: 400, height: 300)
        #expect(planes.held == 1.25 * Double(levels))
        #expect(planes.largestBitmap == 204 * 104 * 4)
        // Two planes hold twice as much; a plane off the target holds nothing.
        var away = Self.doubled
        away.projection = Homography(affine: AffineTransform2D.scale(2, 2).concatenating(.translation(5000, 0)))
        let two = LayerMemory.planeLayers(DisplayList(items: [Self.doubled, Self.doubled, away]), width: 400, height: 300)
        #expect(two.held == 2 * planes.held && two.largestBitmap == planes.largestBitmap)
    }

    @Test("a plane inside a group (a view fading as one) counts as the plane alone")
    func nestedPlanes() {
        let group = DrawItem(
            transform: .identity, shape: RoundedRect(rect: Rect(x: 0, y: 0, width: 400, height: 300)),
            paint: .group(DisplayList(items: [Self.doubled])), opacity: 0.5)
        let alone = LayerMemory.planeLayers(DisplayList(items: [Self.doubled]), width: 400, height: 300).held
        #expect(LayerMemory.planeLayers(DisplayList(items: [group]), width: 400, height: 300).held == alone)
    }

    @Test("a backdrop blur's region: its bounds, eight columns at a time, grown by three sigma up and down")
    func blurRegionWorkedByHand() throws {
        let blur = DrawItem(
            transform: .identity, shape: RoundedRect(rect: Rect(x: 40, y: 40, width: 96, height: 50)),
            paint: .backdropBlur(sigma: 4))
        // Sigma 4 px reads 12 px beyond the bounds: 96 columns (12 groups of 8) by 50 + 24 rows. The bounds are the
        // pixels whose centres the shape covers, give or take its anti-aliased edge pixel.
        let bytes = try #require(LayerMemory.backdropRegionBytes(blur, width: 400, height: 300))
        #expect(bytes >= Double(96 * 74 * 4) && bytes <= Double(104 * 76 * 4), "\(bytes)")
        // At the target's top edge the region stops there.
        var top = blur
        top.shape = RoundedRect(rect: Rect(x: 40, y: 0, width: 96, height: 50))
        #expect(try #require(LayerMemory.backdropRegionBytes(top, width: 400, height: 300)) < bytes)
        #expect(LayerMemory.backdropRegionBytes(Self.doubled, width: 400, height: 300) == nil)
    }
}
