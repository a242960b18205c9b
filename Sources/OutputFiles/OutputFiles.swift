// OutputFiles: how every output of the tool reaches the disk.
//
// Job: write a file, or a set of files in a folder, so that a reader sees
// either what was there before or the complete new output; never damage an
// existing target on failure or interruption; never write over the run's
// inputs or over files that are not the output's own; leave nothing behind,
// not even after `kill -9`. It depends on the C library only, so every stage
// and the CLI can use it.
//
// Invariants:
// - An output is written under a temporary name in the target's own folder
//   (`.NAME.partial-TOKEN`) and appears by `rename(2)`, which is atomic
//   within one file system: no reader ever sees a truncated file.
// - An existing target is refused unless the caller allows overwriting, for
//   single files and file sets alike (ffmpeg's rule, its `-y`); a read-only
//   target file and an input of the run are refused even then.
// - A file set (a PNG sequence, a frame plan) replaces exactly the files it
//   writes. Other files in the folder stay, and so do files of the set's
//   kind it does not write (reported as warnings) unless the set says they
//   are stale (`FileSet.EarlierMembers`). A new folder appears whole (one
//   rename); in an existing folder each file appears complete by a rename
//   over its namesake, so the folder never holds fewer files than before.
// - Every commit passes one process-wide gate (`CommitGate`). A signal's
//   path closes it first thing (`AtomicOutput.stopCommits()`, which never
//   waits): no rename starts afterwards, so the target of a stopped render
//   is as it was, and `committedOutputs()` then says for certain what was
//   written before. A stopping process never races its own last rename.
// - Every temporary file or folder holds an exclusive `flock` while its
//   output is open. Opening an output sweeps that target's temporaries
//   whose lock can be taken: their writer is gone. A live writer's never are.
// - Temporary names fit NAME_MAX for any legal target name: a long name is
//   shortened deterministically, so the sweep still recognises it.
//
// Why `flock` and not `fcntl` locks: `flock` locks belong to the open file
// description, so two opens conflict even within one process, and closing
// some other descriptor of the file does not drop the lock. Why the
// temporaries sit beside the target rather than in /tmp: the final step
// must be a rename on the same file system, and a RAM-backed /tmp must not
// hold gigabytes of frames.
//
// Messages are one line, name the path, and give the real cause
// (`FileProblem`): "no space left on device (the disk is full)", "'x' is a
// FIFO, not a regular file", not the bare strerror of whatever failed last.
//
// (No `enum OutputFiles` holds this text, as Encoders' does: a type named
// like the module would hide the module name, and Encoders must be able to
// say `OutputFiles.AtomicOutput` beside its own `AtomicOutput`.)
