import HTTPServer

/// Demands for a session another instance holds (docs/SCALING.md, "Any instance answers any request"): the instance a
/// balancer sent the request to checks it as its own (the table's access rules, the id's form, the reload's choice),
/// then hands it through the ``DemandRelay`` to the instance named by the id's first 32 bits and answers what that
/// one did. The owner runs ``answer(relayed:)``.
extension ServerRoutes {
    /// Where the session a demand route names is.
    enum DemandTarget {
        /// Open on this instance.
        case here(ViewerSession)
        /// Held by instance `owner` (through the relay).
        case elsewhere(owner: UInt32, SessionID)
        /// Not open anywhere this instance can reach: `204`, session ended.
        case ended
    }

    /// The table and session of a demand route, after the table's 404/403, the id's form (404), and the
    /// registry: open here, another table's here (404), this instance's own ended session or one no relay can reach
    /// (ended), else another instance's.
    func demandTarget(_ parameters: RouteParameters) throws(HTTPError) -> (table: TableBinding, target: DemandTarget) {
        let table = try table(parameters["name"])
        guard let text = parameters["id"], let id = SessionID(text) else { throw Self.noSuchSession }
        switch registry.lookup(id, table: table.name) {
        case .open(let session): return (table, .here(session))
        case .otherTable: throw Self.noSuchSession
        case .notHere:
            guard let relay = configuration.demandRelay, id.instance != relay.instance else { return (table, .ended) }
            return (table, .elsewhere(owner: id.instance, id))
        }
    }

    /// Hands `demand` to `owner` and answers as this instance would have: `done` when it was done, the ended answer
    /// (`ended`: `204` by default) when the owner has no such session, is gone or cannot be reached.
    func forward(_ demand: RelayedDemand, to owner: UInt32, done: HTTPResponse,
                 ended: HTTPResponse = HTTPResponse(status: .noContent)) -> HTTPResult {
        guard let relay = configuration.demandRelay else { return .now(Self.sessionEnded(ended)) }
        let metrics = metrics
        return .later {
            let answer = await relay.forward(demand, to: owner)
            metrics.relayed(answer)
            switch answer {
            case .accepted: return done
            case .ended, .unreachable: return Self.sessionEnded(ended)
            case .otherTable: return Self.noSuchSession.response
            case .badChoice:
                return HTTPError(.badRequest, "the choice was refused: not one of the table's options, or the searches "
                    + "on this page too long together to keep its place").response
            }
        }
    }

    /// A demand another instance forwarded for a session of this one: done here as if it had arrived here (its
    /// access was checked where it arrived). Called by the relay's task; never blocks.
    func answer(relayed demand: RelayedDemand) -> RelayedAnswer {
        guard tables[demand.table] != nil else { return .otherTable }
        switch registry.lookup(demand.session, table: demand.table) {
        case .notHere: return .ended
        case .otherTable: return .otherTable
        case .open(let session):
            switch demand.kind {
            case .next:
                session.loadNext()
            case .reload:
                do throws(HTTPError) { try reload(choice: demand.choice, session: session) } catch { return .badChoice }
            }
            return .accepted
        }
    }

    /// A `POST reload`'s choice: `p.PARAMETER=VALUE` of the table's controls (checked against the options, after
    /// merging with the session's, where the session is: ``reload(choice:session:)``; a table's own stream ignores it)
    /// and its search text (checked here, where the request arrived: 400 for text outside the table's rules).
    func reloadChoice(_ request: HTTPRequest, table: TableBinding) throws(HTTPError) -> [String: String] {
        var choice: [String: String] = [:]
        for control in table.controls {
            if let value = request.queryValue(control.streamParameter) { choice[control.parameter] = value }
        }
        if let search = table.search, let value = try search.value(in: request) {
            choice[search.parameter] = value ?? ""
        }
        return choice
    }
}
