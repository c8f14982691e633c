package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.core.publish.ArtifactOwnershipException;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.ledger.MssqlPublicationLedger;
import io.dpone.backfill.targets.mssql.publish.MssqlCarriedObject.Kind;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Creates the campaign's shadow from the live table's catalog, or accepts the one this run key already owns. The
 * shadow is a heap without keys, unique constraints or checks (built once after validation); when the live table is
 * a clustered columnstore, the shadow gets its clustered columnstore now, before loading, because converting a
 * loaded heap would rewrite every row, and lock escalation off while the lanes load it ({@link MssqlShadowTuning}).
 */
final class MssqlShadowCreator {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;

    MssqlShadowCreator(Connection connection, String stateSchema, Duration lockTimeout) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
    }

    void prepare(String runKey, ArtifactNames names, String liveTable) {
        String schema = names.schema();
        MssqlShadowTransaction.run(connection, "prepare shadow " + names.shadowTable(), schema, liveTable, lockTimeout, c -> {
            MssqlPublicationLedger ledger = new MssqlPublicationLedger(c, stateSchema);
            if (ledger.present() && ledger.publicationReceipt(runKey).isPresent()) {
                return null; // Already published: the shadow became the live table; recreating it would be noise.
            }
            List<MssqlCatalogColumn> columns = new MssqlCatalogColumns(c).of(schema, liveTable);
            if (columns.isEmpty()) {
                throw new IllegalStateException("live target table " + schema + "." + liveTable
                        + " does not exist (or is not a user table): provision and review it first");
            }
            if (MssqlTables.exists(c, schema, names.shadowTable())) {
                requireOwned(c, schema, names.shadowTable(), runKey);
                return null;
            }
            MssqlShadowTransaction.execute(c, MssqlShadowDdl.createTable(schema, names.shadowTable(), columns,
                    n -> CarriedObjectNames.onShadow(names, n)));
            Optional<MssqlCarriedObject> columnstore = new MssqlCatalogObjects(c).of(schema, liveTable).stream()
                    .filter(o -> o.kind() == Kind.CLUSTERED_COLUMNSTORE).findFirst();
            if (columnstore.isPresent()) {
                MssqlShadowTransaction.execute(c, MssqlShadowDdl.create(columnstore.get(), schema, names.shadowTable(),
                        CarriedObjectNames.onShadow(names, columnstore.get().name())));
                MssqlShadowTuning.forLoading(c, schema, names.shadowTable());
            }
            MssqlShadowStamp.write(c, schema, names.shadowTable(), MssqlShadowStamp.shadow(runKey));
            return null;
        });
    }

    /** Fails closed unless the table's stamp is exactly this run key's shadow stamp. */
    static void requireOwned(Connection c, String schema, String shadowTable, String runKey) throws SQLException {
        String stamp = MssqlShadowStamp.read(c, schema, shadowTable);
        if (!MssqlShadowStamp.shadow(runKey).equals(stamp)) {
            throw new ArtifactOwnershipException("shadow " + schema + "." + shadowTable + " is not owned by run key "
                    + runKey + ": found " + MssqlShadowStamp.describeOwner(stamp) + " in extended property "
                    + MssqlIdentifiers.quote(MssqlShadowStamp.PROPERTY) + "; it was left untouched. Inspect it, then"
                    + " drop it or use artifactScope: campaign");
        }
    }
}
