/// The part of a ``WebImageContext`` that decides the work of a request, as a value that two
/// requests can compare: the keys whose ``WebImageContextKey/effect`` is among the effects
/// asked for, each with its value's identity (equality for `Hashable` values, the instance
/// for class values).
///
/// Made by ``WebImageContext/identity(for:)``, which returns `nil` when the context cannot be
/// compared: a key of ``WebImageContextKeyEffect/unknown`` effect is set, or a value of an
/// asked-for key is neither `Hashable` nor a class instance.
public struct WebImageContextIdentity: Hashable, Sendable {
    /// One key's value, as far as equality goes.
    enum ValueIdentity: Hashable, @unchecked Sendable {
        // @unchecked Sendable: the AnyHashable wraps a value that was stored as `any Sendable`
        // in the context, and is only compared and hashed.
        case equatable(AnyHashable)
        case instance(ObjectIdentifier)
    }

    struct Entry: Hashable, Sendable {
        let key: ObjectIdentifier
        let value: ValueIdentity
    }

    let entries: [Entry]
}

extension WebImageContext {
    /// The identity of the keys of `effects` in this context, or `nil` when the context cannot
    /// be compared (see ``WebImageContextIdentity``). Keys of effect
    /// ``WebImageContextKeyEffect/none``, and of any effect not in `effects` other than
    /// ``WebImageContextKeyEffect/unknown``, are left out.
    ///
    /// The manager compares `[.load, .decode]` to decide whether two requests share a load; a
    /// loader compares `[.decode]` to decide whether two requesters of one download share a decode.
    /// - Parameter effects: The effects whose keys are compared.
    public func identity(for effects: Set<WebImageContextKeyEffect>) -> WebImageContextIdentity? {
        var entries: [WebImageContextIdentity.Entry] = []
        for (key, entry) in storage {
            switch entry.effect {
            case .unknown: return nil
            case .none: continue
            case let effect where !effects.contains(effect): continue
            default: break
            }
            guard let value = Self.valueIdentity(entry.value) else { return nil }
            entries.append(WebImageContextIdentity.Entry(key: key, value: value))
        }
        entries.sort { $0.key < $1.key }
        return WebImageContextIdentity(entries: entries)
    }

    private static func valueIdentity(_ value: any Sendable) -> WebImageContextIdentity.ValueIdentity? {
        if type(of: value) is AnyClass { return .instance(ObjectIdentifier(value as AnyObject)) }
        if let hashable = value as? AnyHashable { return .equatable(hashable) }
        return nil
    }
}
