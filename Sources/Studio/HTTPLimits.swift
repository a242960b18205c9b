/// How much of a request the studio's server reads, and for how long, before
/// it gives up on the client. Every cap is checked as the bytes arrive, so a
/// hostile client costs at most one line's worth of memory and one timeout of
/// a connection's thread, never the other clients' answers.
struct HTTPLimits: Sendable {
    /// Longest request line or header line, in bytes (CR LF not counted):
    /// a longer request line is 414, a longer header line 431.
    var maxLineBytes = 8 * 1024
    /// Most header lines in one request (431 beyond).
    var maxHeaderCount = 100
    /// Largest whole head, request line and headers together (431 beyond).
    var maxHeadBytes = 64 * 1024
    /// Largest request body: the studio's one POST has none (413 beyond).
    var maxBodyBytes = 64 * 1024
    /// How long a connection may wait for the first byte of a request (a
    /// browser's idle keep-alive connection): closed without an answer after.
    var idleTimeout: Duration = .seconds(60)
    /// How long a request may take to arrive, head and body, from its first byte: 408 after (slow-loris).
    var requestTimeout: Duration = .seconds(10)
    /// How long one write to a client may block (a client that stops reading).
    var sendTimeout: Duration = .seconds(30)
    /// Connections open at once; more are answered 503 and closed (each has a thread).
    var maxConnections = 512
}
