package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.publish.ArtifactOwnershipException;
import io.dpone.backfill.core.publish.SwapStamp;
import io.dpone.backfill.core.publish.SwapSteps;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.targets.postgres.publish.PostgresSwapRenamer.Carry;
import io.dpone.backfill.targets.postgres.publish.PostgresSwapSequences.ColumnSequence;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * PostgreSQL's steps of a publication or rollback ({@code SwapOrder} orders them), in one transaction on one schema.
 * Tables are found by name and moved by OID, so a plan made before the renames still names the same relations after
 * them. The table's comment carries the campaign's stamp ahead of the user's own comment.
 */
final class PostgresSwapSteps implements SwapSteps {
    private final Connection c;
    private final String schema;
    private final PostgresCatalog catalog;
    private final PostgresSwapRenamer renamer;
    private final PostgresSwapSequences sequences;
    /** A planned carry, by the name of the table that holds the names at planning and gets them back at carrying. */
    private record Plan(List<Carry> carries, List<ColumnSequence> outgoingSequences, List<ColumnSequence> incomingSequences) {
    }

    // Keyed by table: a publication group's swap plans every member before it carries any.
    private final java.util.Map<String, Plan> plans = new java.util.HashMap<>();

    PostgresSwapSteps(Connection c, String schema) {
        this.c = c;
        this.schema = schema;
        this.catalog = new PostgresCatalog(c);
        this.renamer = new PostgresSwapRenamer(c);
        this.sequences = new PostgresSwapSequences(c);
    }

    @Override
    public boolean isTable(String table) throws SQLException {
        return catalog.relation(schema, table).filter(Relation::isTable).isPresent();
    }

    @Override
    public boolean exists(String table) throws SQLException {
        return catalog.relation(schema, table).isPresent();
    }

    @Override
    public String describeOwner(String table) throws SQLException {
        return PostgresShadowStamp.describeOwner(catalog.relation(schema, table).map(Relation::comment).orElse(null));
    }

    @Override
    public String stampText(SwapStamp stamp, String runKey) {
        return PostgresShadowStamp.of(stamp, runKey);
    }

    @Override
    public boolean carries(String table, SwapStamp stamp, String runKey) throws SQLException {
        // The stamp leads the comment; the user's own comment may follow it.
        return PostgresShadowStamp.startsWith(relation(table).comment(), stampText(stamp, runKey));
    }

    @Override
    public void requireShadowOwned(String shadow, String runKey) throws SQLException {
        PostgresShadowCreator.requireOwned(relation(shadow), runKey);
    }

    @Override
    public void blockWriters(String table) throws SQLException {
        PostgresShadowTransaction.blockWriters(c, schema, table);
    }

    @Override
    public TableShape liveShape(String table) throws SQLException {
        return catalog.liveShape(schema, table);
    }

    @Override
    public TableFingerprint fingerprint(String table) throws SQLException {
        return PostgresTableFingerprint.of(c, schema, table);
    }

    @Override
    public TableFingerprint fingerprintComparableWith(String table, TableFingerprint reference) throws SQLException {
        return PostgresTableFingerprint.comparableWith(c, schema, table, reference);
    }

    @Override
    public void lockExclusive(String table) throws SQLException {
        // An autovacuum of the table would otherwise deadlock the swap once its catalog rows change.
        PostgresShadowTransaction.lockExclusive(c, schema, table);
    }

    @Override
    public List<String> planCarries(String outgoing, String incoming, UnaryOperator<String> incomingNameOf)
            throws SQLException {
        Relation from = relation(outgoing);
        Relation to = relation(incoming);
        List<Carry> carries = renamer.plan(from.oid(), to.oid(), incomingNameOf);
        plans.put(outgoing, new Plan(carries, sequences.of(from.oid()), sequences.of(to.oid())));
        return PostgresSwapRenamer.unmatched(carries);
    }

    @Override
    public String notRebuilt() {
        return "";
    }

    @Override
    public void carryAttributes(String live, String shadow) throws SQLException {
        Relation from = relation(live);
        Relation to = relation(shadow);
        new PostgresSwapAccess(c).copy(from, to);
        new PostgresShadowStorage(c).carry(from, to);
        sequences.carryPositions(from, to);
        sequences.transferOwnership(from, to);
    }

    @Override
    public void handBack(String published, String backup) throws SQLException {
        // The backup's owner and grants were never changed; the serial sequences the publication moved go back.
        sequences.transferOwnership(relation(published), relation(backup));
    }

    @Override
    public void renameTable(String from, String to) throws SQLException {
        renamer.renameTable(schema, from, to);
    }

    @Override
    public void carryNames(String outgoing, String incoming, UnaryOperator<String> renamed) throws SQLException {
        // After the renames the table planned as outgoing carries the name it had then: it is the incoming one now.
        Plan plan = plans.get(incoming);
        if (plan == null) {
            throw new IllegalStateException("no carries were planned for " + schema + "." + incoming + " before its renames");
        }
        renamer.carry(schema, outgoing, incoming, plan.carries(), renamed);
        sequences.carryIdentityNames(plan.outgoingSequences(), plan.incomingSequences(), renamed);
    }

    @Override
    public void stampPublished(String live, String backup, String runKey) throws SQLException {
        // The backup is the former live table: its comment is still the user's (a rename keeps comments).
        String userComment = relation(backup).comment();
        comment(live, PostgresShadowStamp.withUserComment(PostgresShadowStamp.published(runKey), userComment));
        comment(backup, PostgresShadowStamp.withUserComment(PostgresShadowStamp.backup(runKey), userComment));
    }

    @Override
    public void stampRolledBack(String live, String shadow, String runKey) throws SQLException {
        comment(live, PostgresShadowStamp.userComment(relation(live).comment()));
        comment(shadow, PostgresShadowStamp.shadow(runKey));
    }

    @Override
    public void repointInboundReferences(String outgoing, String incoming, Set<String> kept) throws SQLException {
        PostgresInboundReferences references = new PostgresInboundReferences(c);
        references.repoint(references.of(relation(outgoing).oid()).stream()
                .filter(r -> !(r.schemaName().equals(schema) && kept.contains(r.tableName()))).toList(),
                PostgresIdentifiers.qualified(schema, incoming));
    }

    @Override
    public void validateDeferredKeys(String outgoing, String incoming, UnaryOperator<String> incomingNameOf,
                                     java.util.Map<String, String> incomingOf) throws SQLException {
        PostgresCatalogObjects objects = new PostgresCatalogObjects(c);
        long incomingOid = relation(incoming).oid();
        for (PostgresCatalogObjects.CarriedObject key : objects.of(relation(outgoing).oid())) {
            if (!key.isForeignKey() || !key.validated()) {
                continue;
            }
            String name = incomingNameOf.apply(key.name());
            // The shadow build left this key unvalidated: it references another member of the group.
            if (Boolean.FALSE.equals(objects.constraintValidated(incomingOid, name))) {
                PostgresForeignKeyOrphans.validate(c, PostgresIdentifiers.qualified(schema, incoming), name,
                        "foreign key " + key.name() + " of " + schema + "." + outgoing + " on the group's incoming table");
            }
        }
    }

    private void comment(String table, String text) throws SQLException {
        PostgresShadowSql.comment(c, "TABLE " + PostgresIdentifiers.qualified(schema, table), text);
    }

    private Relation relation(String table) throws SQLException {
        return catalog.relation(schema, table).orElseThrow(() -> new ArtifactOwnershipException(
                schema + "." + table + " does not exist; nothing was changed"));
    }
}
