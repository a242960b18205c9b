/// Why the studio could not start. The command line prints `message` and exits;
/// a taken port is its own case so that it can name the port and what to do.
public enum StudioError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Another program (perhaps another studio) listens on this address.
    case portTaken(host: String, port: Int)
    /// `--host` is not an IP address this machine can listen on.
    case badHost(String)
    /// The scene file cannot be read at all (missing, a folder, no permission).
    case unreadableScene(String)
    /// The page's files are not beside the executable (a binary copied alone).
    case missingResources(String)
    /// Any other failure to listen, with the system's words.
    case cannotListen(String)

    public var message: String {
        switch self {
        case .portTaken(let host, let port):
            return "port \(port) is taken: another program (perhaps another studio) is listening on \(host):\(port); "
                + "stop it, or give --port N (--port 0 picks a free port)"
        case .badHost(let host):
            return "cannot listen on '\(host)': give an IP address such as 127.0.0.1, ::1 or 0.0.0.0 (or localhost)"
        case .unreadableScene(let text), .missingResources(let text), .cannotListen(let text):
            return text
        }
    }

    public var description: String { message }
}
