/// A value's fields behind one reference, copied before a change when another value shares them.
///
/// GrowthBook's experiments, experiment results, features, payloads and user contexts are copied
/// into every evaluator, result and exposure: with their fields in one box, a copy is one retain,
/// not one per field. A type keeps `private var storage: CopyOnWrite<Fields>` and gives each
/// public property `get { storage.fields.name }` and `set { storage.fields.name = newValue }`: a
/// change is made in the box when no other value shares it.
///
/// The two unchecked constructs below pay in the `GrowthBook.Evaluate` benchmark (`Benchmarks/run`):
/// every read of a field goes through them.
struct CopyOnWrite<Fields: Sendable>: Sendable {
    private final class Storage: @unchecked Sendable {
        // Changed only while uniquely referenced (see `fields`' modify accessor), so sharing it is
        // safe and no two accesses can overlap: the runtime's access checks are left out of every read.
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    init(_ fields: Fields) {
        storage = Storage(fields)
    }

    /// The fields: read in place, and copied before a change when shared.
    var fields: Fields {
        _read { yield storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    /// Whether both share one box (and so have equal fields).
    func shares(with other: Self) -> Bool {
        storage === other.storage
    }
}
