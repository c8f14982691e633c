package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.publish.ArtifactOwnershipException;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.targets.postgres.ledger.PostgresReceiptStatements;

import java.sql.Connection;
import java.util.Optional;

/** Creates the campaign's shadow from the live table's catalog, or accepts the one this run key already owns. */
public final class PostgresShadowCreator {
    // No INCLUDING INDEXES or CONSTRAINTS: unique indexes, keys and checks are built once after validation.
    private static final String LIKE_OPTIONS =
            " INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMMENTS";

    private final Connection connection;
    private final PostgresReceiptStatements ledger;

    PostgresShadowCreator(Connection connection, PostgresReceiptStatements ledger) {
        this.connection = connection;
        this.ledger = ledger;
    }

    void prepare(String runKey, ArtifactNames names, String liveTable) {
        PostgresShadowTransaction.run(connection, "prepare shadow " + names.shadowTable(), c -> {
            PostgresShadowTransaction.pinSearchPath(c);
            PostgresShadowTransaction.lockTarget(c, names.schema(), liveTable);
            if (ledger.ledgerPresent() && ledger.publicationReceipt(runKey).isPresent()) {
                return null; // Already published: the shadow became the live table; recreating it would be noise.
            }
            PostgresCatalog catalog = new PostgresCatalog(c);
            Relation live = catalog.relation(names.schema(), liveTable)
                    .filter(Relation::isTable)
                    .orElseThrow(() -> new IllegalStateException("live target table " + names.schema() + "."
                            + liveTable + " does not exist (or is not a plain table): provision and review it first"));
            Optional<Relation> shadow = catalog.relation(names.schema(), names.shadowTable());
            if (shadow.isPresent()) {
                requireOwned(shadow.get(), runKey);
                return null;
            }
            String shadowName = PostgresIdentifiers.qualified(names.schema(), names.shadowTable());
            PostgresShadowSql.execute(c, "CREATE TABLE " + shadowName + " (LIKE "
                    + PostgresIdentifiers.qualified(live.schema(), live.name()) + LIKE_OPTIONS + ")"
                    + PostgresShadowStorage.WHILE_LOADING);
            PostgresShadowSql.comment(c, "TABLE " + shadowName, PostgresShadowStamp.shadow(runKey));
            return null;
        });
    }

    /** Fails closed unless the relation is a table whose comment is exactly this run key's shadow stamp. */
    static void requireOwned(Relation shadow, String runKey) {
        if (!shadow.isTable() || !PostgresShadowStamp.isShadowOf(shadow.comment(), runKey)) {
            throw new ArtifactOwnershipException("shadow " + shadow.schema() + "." + shadow.name()
                    + " is not owned by run key " + runKey + ": found " + PostgresShadowStamp.describeOwner(shadow.comment())
                    + (shadow.isTable() ? "" : " on a relation that is not a table")
                    + "; it was left untouched. Inspect it, then drop it or use artifactScope: campaign");
        }
    }
}
