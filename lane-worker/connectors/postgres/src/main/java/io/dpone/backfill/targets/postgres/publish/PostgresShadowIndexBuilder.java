package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.targets.postgres.ledger.PostgresReceiptStatements;
import io.dpone.backfill.targets.postgres.publish.PostgresCatalogObjects.CarriedObject;
import io.dpone.backfill.targets.postgres.publish.PostgresCatalogObjects.Kind;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * Recreates the live table's indexes and constraints on the validated shadow under temporary names
 * ({@link CarriedObjectNames#onShadow}). Each object is built in its own transaction under the target lock, so a
 * crash keeps what was finished; a rerun re-derives the list from the catalog and skips what the shadow has. Then
 * the shadow is analyzed.
 */
public final class PostgresShadowIndexBuilder {
    private final Connection connection;
    private final PostgresReceiptStatements ledger;

    PostgresShadowIndexBuilder(Connection connection, PostgresReceiptStatements ledger) {
        this.connection = connection;
        this.ledger = ledger;
    }

    /**
     * {@code validatedAtSwap}: the other member tables of the campaign's publication group; a key referencing one
     * is created unvalidated here (that member's shadow may not be loaded yet) and validated by the group's swap.
     */
    void build(String runKey, ArtifactNames names, String liveTable, Set<String> validatedAtSwap) {
        List<CarriedObject> objects = PostgresShadowTransaction.run(connection, "list indexes of " + liveTable, c -> {
            begin(c, names, liveTable);
            if (ledger.ledgerPresent() && ledger.publicationReceipt(runKey).isPresent()) {
                return null; // Published: the shadow is the live table now and has them.
            }
            Relation live = new PostgresCatalog(c).relation(names.schema(), liveTable).filter(Relation::isTable)
                    .orElseThrow(() -> new IllegalStateException("live target table " + names.schema() + "."
                            + liveTable + " does not exist"));
            ownedShadow(c, runKey, names);
            return new PostgresCatalogObjects(c).of(live.oid());
        });
        if (objects == null) {
            return;
        }
        for (CarriedObject object : objects) {
            String name = CarriedObjectNames.onShadow(names, object.name());
            boolean validate = PostgresShadowTransaction.run(connection, "build " + object.name() + " on the shadow",
                    c -> create(c, runKey, names, liveTable, object, name));
            boolean deferred = validatedAtSwap.stream().anyMatch(t -> object.references(names.schema(), t));
            if (validate && !deferred) {
                PostgresShadowTransaction.run(connection, "validate " + object.name() + " on the shadow", c -> {
                    begin(c, names, liveTable);
                    ownedShadow(c, runKey, names);
                    // Rows that reference keys the referenced table lacks are counted and sampled for the block.
                    PostgresForeignKeyOrphans.validate(c, PostgresIdentifiers.qualified(names.schema(), names.shadowTable()),
                            name, "the live table's foreign key " + object.name());
                    return null;
                });
            }
        }
        // The planner's statistics, from the final rows and indexes: the published table serves queries at once, and
        // autovacuum, off on the shadow while it loaded (ADR 0025), would only gather them a while after the swap.
        PostgresShadowTransaction.run(connection, "analyze the shadow", c -> {
            begin(c, names, liveTable);
            ownedShadow(c, runKey, names);
            PostgresShadowSql.execute(c, "ANALYZE " + PostgresIdentifiers.qualified(names.schema(), names.shadowTable()));
            return null;
        });
    }

    /** Creates the object unless the shadow has it; returns whether a foreign key still needs validating. */
    private static boolean create(Connection c, String runKey, ArtifactNames names, String liveTable,
                                  CarriedObject object, String name) throws SQLException {
        begin(c, names, liveTable);
        Relation shadow = ownedShadow(c, runKey, names);
        PostgresCatalogObjects catalog = new PostgresCatalogObjects(c);
        if (object.kind() == Kind.INDEX) {
            if (!catalog.hasIndex(shadow.oid(), name)) {
                PostgresShadowSql.execute(c, PostgresShadowDdl.create(object, names.schema(), names.shadowTable(), name));
                copyComment(c, object, names, name);
            }
            return false;
        }
        Boolean validated = catalog.constraintValidated(shadow.oid(), name);
        if (validated == null) {
            PostgresShadowSql.execute(c, PostgresShadowDdl.create(object, names.schema(), names.shadowTable(), name));
            copyComment(c, object, names, name);
            return PostgresShadowDdl.needsValidation(object);
        }
        return !validated && PostgresShadowDdl.needsValidation(object);
    }

    private static void copyComment(Connection c, CarriedObject object, ArtifactNames names, String name)
            throws SQLException {
        if (object.comment() != null) {
            PostgresShadowSql.comment(c, PostgresShadowDdl.comment(object, names.schema(), names.shadowTable(), name),
                    object.comment());
        }
    }

    private static void begin(Connection c, ArtifactNames names, String liveTable) throws SQLException {
        PostgresShadowTransaction.pinSearchPath(c);
        PostgresShadowTransaction.lockTarget(c, names.schema(), liveTable);
    }

    private static Relation ownedShadow(Connection c, String runKey, ArtifactNames names) throws SQLException {
        Relation shadow = new PostgresCatalog(c).relation(names.schema(), names.shadowTable())
                .orElseThrow(() -> new IllegalStateException("shadow " + names.schema() + "." + names.shadowTable()
                        + " does not exist: prepare it before building its indexes"));
        PostgresShadowCreator.requireOwned(shadow, runKey);
        return shadow;
    }
}
