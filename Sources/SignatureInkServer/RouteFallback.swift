// SPDX-License-Identifier: Apache-2.0
import Hummingbird

/// Answers the requests no route takes, as JSON: 405 with `Allow` for a method a routed path does not take (RFC 9110,
/// 15.5.6), 404 for a path no route has.
///
/// Its table is the router's own routes, read when it is made, with `HEAD` wherever there is a `GET` (the router
/// answers those from the `GET`): added to the router after the routes, it sees only the requests none of them
/// took, and cannot drift from them.
struct RouteFallback<Context: RequestContext>: RouterMiddleware {
    /// Each routed path and the methods it takes, sorted by name.
    let table: [(path: RouterPath, methods: [HTTPRequest.Method])]

    /// The table of `routes`.
    /// - Parameter routes: every route's path and method (`Router.routes`).
    init(routes: [(path: RouterPath, method: HTTPRequest.Method)]) {
        var table: [(path: RouterPath, methods: [HTTPRequest.Method])] = []
        for route in routes {
            var methods: Set<HTTPRequest.Method> = [route.method]
            if route.method == .get { methods.insert(.head) }
            if let i = table.firstIndex(where: { $0.path == route.path }) {
                methods.formUnion(table[i].methods)
                table[i].methods = methods.sorted { $0.rawValue < $1.rawValue }
            } else {
                table.append((route.path, methods.sorted { $0.rawValue < $1.rawValue }))
            }
        }
        self.table = table
    }

    /// The methods the path `path` takes, or `nil` when no route has it.
    func methods(of path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return table.first { entry in
            entry.path.components.count == segments.count && zip(entry.path.components, segments).allSatisfy { $0 ~= $1 }
        }?.methods
    }

    /// Refuses `request` with 405 or 404; a request a route takes (one added after this) goes on to `next`.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let methods = methods(of: request.uri.path) else { throw APIError(.notFound, "no such path") }
        guard !methods.contains(request.method) else { return try await next(request, context) }
        let allow = methods.map(\.rawValue).joined(separator: ", ")
        throw APIError(.methodNotAllowed, "this path takes \(allow)", fields: [.allow: allow])
    }
}
