// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Answers, as JSON with the security headers, the requests HTTP/1.1 says a server must refuse before any route sees
/// them: one the parser cannot read (a broken request line or header, a chunk size that is no number, a transfer
/// coding other than chunked), and an HTTP/1.1 request without exactly one `Host` (RFC 9112, 3.2). The connection is
/// closed after the answer, since where the next request would begin is unknown.
///
/// It sits between NIO's HTTP/1 parser and the conversion to HTTP types (``HTTP1ConformanceChannel`` puts it there),
/// where the request's version is still known and the parser's errors arrive first. Hummingbird would answer a broken
/// head with a bare 400 of its own and a broken body would reach the route as an unknown error (500); here:
/// - a broken head is answered here, after the answers still owed to requests before it on the connection;
/// - a broken body is passed on to the route reading it, which answers 400 (``Request/boundedBody(limit:)``), and the
///   connection closes once that request is answered. Nothing is read after either.
final class HTTP1ConformanceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether a request's head has been passed on and its end not yet: a parser error now is in its body.
    private var readingBody = false
    /// Requests passed on whose answer has not ended yet.
    private var unanswered = 0
    /// The connection's last answer, written once every request before it is answered.
    private var refusal: APIError?
    /// Whether the connection closes once every request passed on is answered (a body's framing broke).
    private var closesWhenAnswered = false
    /// Whether this side is done: the last answer is written and the connection closing; nothing more is written.
    private var finished = false
    /// When the end of the last answer written was handed to the socket.
    private var lastAnswerSent: EventLoopFuture<Void>?

    /// Passes each request part on, unless the connection is being refused or the head lacks its `Host`.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Nothing after a refused or broken request is read: where it begins is unknown.
        guard refusal == nil, !closesWhenAnswered, !finished else { return }
        let part = unwrapInboundIn(data)
        switch part {
        case let .head(head):
            if let problem = Self.hostProblem(head) {
                refuse(APIError(.badRequest, problem, closesConnection: true), context: context)
                return
            }
            readingBody = true
            unanswered += 1
        case .body:
            break
        case .end:
            readingBody = false
        }
        context.fireChannelRead(data)
    }

    /// Answers a parser error in a head, and passes one in a body on to the route reading it.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError || error is ByteToMessageDecoderError else {
            context.fireErrorCaught(error)
            return
        }
        // The parser repeats its error for every read after the first; the first decided what happens.
        guard refusal == nil, !closesWhenAnswered, !finished else { return }
        if readingBody {
            closesWhenAnswered = true
            context.fireErrorCaught(error)
            if unanswered == 0 { finish(context: context) }
        } else if error as? HTTPParserError == .headerOverflow {
            refuse(APIError(.requestHeaderFieldsTooLarge, "the request's header fields are too large", closesConnection: true),
                   context: context)
        } else {
            let reason = (error as? HTTPParserError).map(Self.words) ?? "it cannot be read"
            refuse(APIError(.badRequest, "the request is not valid HTTP/1.1: \(reason)", closesConnection: true), context: context)
        }
    }

    /// Counts the answers as they end, and writes the last answer or closes once every request is answered.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Hummingbird's own bare 400 for an error passed on is dropped: the route has answered that request.
        guard !finished else {
            promise?.succeed(())
            return
        }
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let sent = context.eventLoop.makePromise(of: Void.self)
        if let promise { sent.futureResult.cascade(to: promise) }
        context.write(data, promise: sent)
        lastAnswerSent = sent.futureResult
        unanswered = max(0, unanswered - 1)
        if unanswered == 0, refusal != nil || closesWhenAnswered { finish(context: context) }
    }

    /// Sets the connection's last answer, and writes it now if no answer is owed.
    private func refuse(_ error: APIError, context: ChannelHandlerContext) {
        refusal = error
        if unanswered == 0 { finish(context: context) }
    }

    /// Writes the last answer (when there is one), flushes, and closes the connection once every answer is sent:
    /// closing earlier would drop the writes still pending.
    private func finish(context: ChannelHandlerContext) {
        finished = true
        if let refusal {
            var headers = HTTPHeaders(SecurityHeaderFields.all)
            for field in refusal.headerFields { headers.replaceOrAdd(name: field.name.rawName, value: field.value) }
            let body = refusal.body
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            // An origin server with a clock dates its 4xx answers (RFC 9110, 6.6.1), as Hummingbird does its own.
            headers.replaceOrAdd(name: "Date", value: Self.httpDate(Date()))
            let status = HTTPResponseStatus(statusCode: refusal.status.code, reasonPhrase: refusal.status.reasonPhrase)
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            let sent = context.eventLoop.makePromise(of: Void.self)
            context.write(wrapOutboundOut(.end(nil)), promise: sent)
            lastAnswerSent = sent.futureResult
        }
        context.flush()
        guard let lastAnswerSent else {
            context.close(promise: nil)
            return
        }
        lastAnswerSent.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// Why an HTTP/1.1 head cannot be served for its `Host` fields, or `nil` when it can (RFC 9112, 3.2: exactly one
    /// `Host`; an HTTP/1.0 request may have none).
    static func hostProblem(_ head: HTTPRequestHead) -> String? {
        let hosts = head.headers["Host"]
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else {
            return hosts.count > 1 ? "the request has more than one Host header" : nil
        }
        switch hosts.count {
        case 0: return "an HTTP/1.1 request must name its host in a Host header"
        case 1: return nil
        default: return "the request has more than one Host header"
        }
    }

    /// `date` as an HTTP date (RFC 9110, 5.6.7): `Wed, 25 Nov 2026 19:25:17 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// A parser error in words: NIO's own ("invalid HTTP method"), and what `unknown` stands for.
    static func words(_ error: HTTPParserError) -> String {
        switch error {
        case .unknown: return "its framing is broken (a transfer coding other than chunked, or bytes where none belong)"
        case .invalidChunkSize: return "a chunk size is not a hexadecimal number"
        default: return "\(error)"
        }
    }
}

/// HTTP/1.1 as Hummingbird's `HTTP1Channel` serves it, with ``HTTP1ConformanceHandler`` between the parser and the
/// conversion to HTTP types.
struct HTTP1ConformanceChannel: ServerChildChannel {
    /// The Hummingbird channel it wraps.
    let base: HTTP1Channel

    /// Sets the channel up as ``base`` does, then puts the handler in front of the conversion to HTTP types.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(HTTP1ConformanceHandler(), position: .before(try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)))
            return value
        }
    }

    /// Serves the requests as ``base`` does.
    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with ``HTTP1ConformanceHandler``: Hummingbird's `HTTPServerBuilder.http1(configuration:)` otherwise.
    /// - Parameter configuration: the HTTP/1 channel's configuration (its additional handlers, the idle timeout).
    static func conformingHTTP1(configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        .init { responder in HTTP1ConformanceChannel(base: HTTP1Channel(responder: responder, configuration: configuration)) }
    }
}
