package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.targets.mssql.MssqlFailures;
import io.dpone.backfill.targets.mssql.ledger.MssqlPublicationLedger;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Recreates the live table's primary key, unique constraints, checks and rowstore indexes on the validated shadow
 * under temporary names ({@link CarriedObjectNames#onShadow}), clustered first, then compresses a columnstore's delta
 * rowgroups and gives the shadow the live table's lock escalation ({@link MssqlShadowTuning}). Each object is built in its own
 * transaction under the target lock, so a crash keeps what was finished; a rerun re-derives the list from the
 * catalog and skips what the shadow already has. Then the live table's foreign keys, each checked against the loaded
 * shadow as it is added (its orphans counted first, so a block names them), a reference to the table itself pointed at
 * the shadow; keys to another member of the campaign's publication group are left to the group's swap
 * ({@link MssqlSwapSteps#validateDeferredKeys}), where that member's shadow is loaded too.
 */
final class MssqlShadowIndexBuilder {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;

    MssqlShadowIndexBuilder(Connection connection, String stateSchema, Duration lockTimeout) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
    }

    /** @param builtAtSwap the other members of the campaign's publication group (live table names) */
    void build(String runKey, ArtifactNames names, String liveTable, Set<String> builtAtSwap) {
        String schema = names.schema();
        // Empty when published: the shadow is the live table now, nothing is built or settled on it.
        Optional<List<MssqlCarriedObject>> pending = MssqlShadowTransaction.run(connection, "list indexes of " + liveTable,
                schema, liveTable, lockTimeout, c -> {
                    MssqlPublicationLedger ledger = new MssqlPublicationLedger(c, stateSchema);
                    if (ledger.present() && ledger.publicationReceipt(runKey).isPresent()) {
                        return Optional.<List<MssqlCarriedObject>>empty();
                    }
                    if (!MssqlTables.isTable(c, schema, liveTable)) {
                        throw new IllegalStateException("live target table " + schema + "." + liveTable + " does not exist");
                    }
                    ownedShadow(c, runKey, names);
                    return Optional.of(new MssqlCatalogObjects(c).of(schema, liveTable).stream()
                            .filter(o -> MssqlShadowDdl.deferred(o.kind())).toList());
                });
        if (pending.isEmpty()) {
            return;
        }
        for (MssqlCarriedObject object : pending.get()) {
            String name = CarriedObjectNames.onShadow(names, object.name());
            MssqlShadowTransaction.run(connection, "build " + object.name() + " on the shadow", schema, liveTable,
                    lockTimeout, c -> {
                        ownedShadow(c, runKey, names);
                        boolean present = new MssqlCatalogObjects(c).of(schema, names.shadowTable()).stream()
                                .anyMatch(o -> o.name().equals(name) && o.kind() == object.kind());
                        if (!present) {
                            MssqlShadowTransaction.execute(c, MssqlShadowDdl.create(object, schema, names.shadowTable(), name));
                        }
                        return null;
                    });
        }
        List<MssqlForeignKey> keys = MssqlShadowTransaction.run(connection, "list foreign keys of " + liveTable, schema,
                liveTable, lockTimeout, c -> outboundBuiltHere(c, schema, liveTable, builtAtSwap));
        for (MssqlForeignKey key : keys) {
            String name = CarriedObjectNames.onShadow(names, key.name());
            MssqlShadowTransaction.run(connection, "build foreign key " + key.name() + " on the shadow", schema, liveTable,
                    lockTimeout, c -> {
                        ownedShadow(c, runKey, names);
                        boolean present = new MssqlCatalogObjects(c).of(schema, names.shadowTable()).stream()
                                .anyMatch(o -> o.name().equals(name) && o.kind() == MssqlCarriedObject.Kind.FOREIGN_KEY);
                        if (!present) {
                            addToShadow(c, key, names, name);
                        }
                        return null;
                    });
        }
        // Idempotent: a rerun sets the same escalation and compresses nothing new.
        Optional<String> columnstore = MssqlShadowTransaction.run(connection, "settle " + names.shadowTable(), schema,
                liveTable, lockTimeout, c -> {
                    ownedShadow(c, runKey, names);
                    MssqlShadowTuning.forPublication(c, schema, liveTable, names.shadowTable());
                    return MssqlShadowTuning.columnstore(c, schema, names.shadowTable());
                });
        if (columnstore.isPresent()) {
            try {
                MssqlShadowTuning.compress(connection, schema, names.shadowTable(), columnstore.get());
            } catch (SQLException e) {
                throw MssqlFailures.of("compress the rowgroups of " + names.shadowTable() + ": " + e.getMessage(), e);
            }
        }
    }

    /** The live table's keys but those to another group member, which the group's swap adds. */
    private static List<MssqlForeignKey> outboundBuiltHere(Connection c, String schema, String liveTable,
                                                           Set<String> builtAtSwap) throws SQLException {
        MssqlForeignKeys catalog = new MssqlForeignKeys(c);
        Set<Integer> members = new HashSet<>();
        for (String member : builtAtSwap) {
            members.add(catalog.objectId(schema, member));
        }
        return catalog.outbound(schema, liveTable).stream().filter(k -> !members.contains(k.referencedId())).toList();
    }

    /** {@code key} on the shadow as {@code name}: a self-reference points at the shadow, which holds the rows now. */
    private static void addToShadow(Connection c, MssqlForeignKey key, ArtifactNames names, String name) throws SQLException {
        String shadow = MssqlObjectNames.twoPart(names.schema(), names.shadowTable());
        String referenced = key.selfReference() ? shadow : key.qualifiedReferenced();
        if (key.checked()) {
            MssqlForeignKeyOrphans.require(c, key, shadow, referenced, "the live table's foreign key " + key.name()
                    + " (" + String.join(", ", key.columns()) + ") references " + key.referencedSchema() + "."
                    + key.referencedTable(), names.schema() + "." + names.shadowTable());
        }
        for (String sql : key.add(shadow, name, referenced)) {
            MssqlShadowTransaction.execute(c, sql);
        }
    }

    private static void ownedShadow(Connection c, String runKey, ArtifactNames names) throws SQLException {
        if (!MssqlTables.exists(c, names.schema(), names.shadowTable())) {
            throw new IllegalStateException("shadow " + names.schema() + "." + names.shadowTable()
                    + " does not exist: prepare it before building its indexes");
        }
        MssqlShadowCreator.requireOwned(c, names.schema(), names.shadowTable(), runKey);
    }
}
