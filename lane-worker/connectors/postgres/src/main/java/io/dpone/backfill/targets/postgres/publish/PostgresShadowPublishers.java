package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.publish.ShadowPublication;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.TableFingerprinter;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.postgres.PostgresSqlException;
import io.dpone.backfill.targets.postgres.ledger.PostgresReceiptStatements;

import java.sql.Connection;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ShadowPublisher} for a PostgreSQL target, from its parts. The connection must be in auto-commit mode: each operation
 * runs its own transactions. Shadow DDL, publication and rollback of one live table are serialised across
 * processes by a transaction-scoped advisory lock keyed on the target table. Ownership lives in table comments
 * ({@code dpone-backfill run_key=...}); the ledger rows a swap needs (lease fence, receipts) are written in the
 * swap's own transaction in {@code stateSchema}.
 *
 * <p>Rollback ({@link ShadowPublisher#rollback}) is an operator-authorised swap back, fenced by the campaign lease like
 * publication: it requires this run key's publication receipt and no rollback receipt (a replay returns the
 * existing rollback receipt), the live table stamped as published by this run key and the backup stamped as its
 * backup; it renames the published table back to the shadow name and the backup to the live name, carries index,
 * constraint and identity-sequence names back, and writes the rollback receipt, all in one transaction.
 * Anything else fails closed with {@link io.dpone.backfill.core.publish.ArtifactOwnershipException} and no change.
 *
 * <p>SQL failures surface as {@link PostgresSqlException} after the transaction rolled back; a lock timeout
 * there is transient.
 */
public final class PostgresShadowPublishers {
    private PostgresShadowPublishers() {
    }

    /**
     * The shadow is created with {@code CREATE TABLE ... (LIKE live INCLUDING DEFAULTS, GENERATED, IDENTITY, STORAGE,
     * COMMENTS)}: columns, types, defaults and NOT NULL, but no index or constraint, with autovacuum off until
     * publication gives it the live table's storage parameters (ADR 0025), and stamped. An existing shadow must carry
     * exactly this run key's stamp. After publication (receipt present) preparing it does nothing.
     * <p>
     * Deferred indexes: every index, primary key, unique, exclusion, check and foreign-key constraint of the live
     * table is recreated on the shadow under {@link io.dpone.backfill.core.naming.CarriedObjectNames#onShadow
     * temporary names}, one transaction each; what the shadow already has is skipped. Foreign keys are added NOT
     * VALID, then validated. Last, the shadow is analyzed: the published table has the planner's statistics from its
     * first query (ADR 0025).
     *
     * @param faults {@link io.dpone.backfill.core.fault.FaultPoint#IN_PUBLISH} fires inside the swap transaction
     */
    public static ShadowPublisher of(Connection target, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        Objects.requireNonNull(target, "target");
        ShadowPublication.requireLockTimeout(lockTimeout);
        PostgresReceiptStatements ledger = new PostgresReceiptStatements(target, stateSchema);
        return new ShadowPublication(new PostgresTargetCatalog(target), new Fingerprints(target),
                new PostgresShadowValidator(target)::validate, new PostgresShadowCreator(target, ledger)::prepare,
                new PostgresShadowIndexBuilder(target, ledger)::build,
                new PostgresSwapTransactions(target, stateSchema, lockTimeout), faults);
    }

    private record Fingerprints(Connection target) implements TableFingerprinter {
        @Override
        public TableFingerprint fingerprint(String schema, String table) {
            return PostgresShadowTransaction.run(target, "fingerprint " + schema + "." + table,
                    c -> PostgresTableFingerprint.of(c, schema, table));
        }

        /**
         * Binary pass-through (ADR 0017) lands the source's tuples byte for byte in columns of the identical types,
         * so the receipts' sum is the shadow's digest; a rollback digests the table again on the binary wire. Rows
         * that travelled as text may have been converted on the way in, and are hashed by {@link #fingerprint}.
         */
        @Override
        public Optional<TableFingerprint> ofLoadedRows(RowEncoding encoding, ChunkDigest receipts) {
            return encoding == RowEncoding.POSTGRES_COPY_BINARY ? Optional.of(TableFingerprint.ofRowDigest(receipts))
                    : Optional.empty();
        }
    }
}
