// TEMPORARY stub so that main compiles while the real libpng codec is written on branch `encoders`.
import Primitives
public struct PNGError: Error, CustomStringConvertible { public var description: String }
public enum PNGCodec {
    public static func readSize(fileAt path: String) throws -> (width: Int, height: Int) { throw PNGError(description: "stub") }
    public static func decode(fileAt path: String) throws -> Bitmap { throw PNGError(description: "stub") }
}
