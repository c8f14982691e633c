package io.dpone.backfill.cli.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.PrettyJson;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.engine.CampaignStatusProjector;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.wiring.Connectors;

/** Renders a plan: one summary line, or a bounded JSON document (per-chunk detail only on request). */
public final class PlanReport {

    /** A physical plan's ranges follow from the heap's size, which only preparation measures (ADR 0015). */
    static final String UNRESOLVED = "block range of the source heap, planned at preparation from its size";

    private PlanReport() {
    }

    private static String chunkedOn(CampaignBlueprint b) {
        return b.plan().resolved() ? b.plan().column() : "the source heap's blocks (ranges planned at preparation)";
    }

    public static String summaryLine(CampaignBlueprint b) {
        BackfillCampaignSpec s = b.definition().spec();
        return String.format("plan %s: %d %s chunks on %s, %d workers, %s into %s %s.%s; run key %s; shadow %s, backup %s",
                b.definition().name(), b.plan().size(), b.plan().kind().wireName(), chunkedOn(b),
                s.getParallelWorkers(), s.getPublication().getMode().wireName(), s.getTarget().getType().wireName(),
                s.getTarget().getSchema(), s.getTarget().getTable(), b.identity().runKey(),
                b.artifacts().schema() + "." + b.artifacts().shadowTable(),
                b.artifacts().schema() + "." + b.artifacts().backupTable());
    }

    /**
     * What {@code plan} prints as text: the summary line, then what else decides what lands where (issue 40): the
     * column mapping when names differ, the publication group when there is one, manual approval.
     */
    public static String text(CampaignBlueprint b) {
        BackfillCampaignSpec s = b.definition().spec();
        StringBuilder text = new StringBuilder(summaryLine(b));
        io.dpone.backfill.core.campaign.ColumnMapping mapping = s.columnMapping();
        if (!mapping.sameNames()) {
            text.append("\ncolumns: each source column loads the target column ").append(mapping.naming().wireName())
                    .append(" names").append(mapping.pairs().isEmpty() ? "" : ", except (source -> target):");
            mapping.pairs().forEach((source, target) -> text.append("\n  ").append(source).append(" -> ").append(target));
        }
        io.dpone.backfill.core.campaign.PublicationGroup.of(s).ifPresent(g -> text.append("\npublication group ")
                .append(g.describe()).append(": swapped in one transaction once every member is validated"));
        if (s.getPublication().getApproval() == io.dpone.backfill.core.campaign.ApprovalMode.MANUAL) {
            text.append("\napproval: manual (the swap waits for `backfill publish`)");
        }
        return text.toString();
    }

    /** The text, then how many times the chunks read the source (ADR 0055), or why that is not known. */
    public static String text(CampaignBlueprint b, SourceReadCost reads) {
        return text(b) + "\nsource reads: " + reads.describe();
    }

    /**
     * The JSON document with {@code sourceReads} as the campaign's status will show it once prepared: the
     * prediction's figures, or only why there is none.
     */
    public static String json(CampaignBlueprint b, boolean withChunks, SourceReadCost reads) {
        ObjectNode root = document(b, withChunks);
        root.set("sourceReads", PrettyJson.MAPPER.valueToTree(CampaignStatusProjector.sourceReads(reads)));
        return PrettyJson.write(root);
    }

    public static String json(CampaignBlueprint b, boolean withChunks) {
        return PrettyJson.write(document(b, withChunks));
    }

    private static ObjectNode document(CampaignBlueprint b, boolean withChunks) {
        BackfillCampaignSpec s = b.definition().spec();
        ObjectNode root = PrettyJson.object();
        root.put("campaign", b.definition().name());
        if (b.definition().namespace() != null) {
            root.put("namespace", b.definition().namespace());
        }
        root.put("backfillId", s.getBackfillId());
        root.put("runKey", b.identity().runKey());
        root.put("planDigest", b.identity().planDigest());
        root.put("configDigest", b.identity().configDigest());
        ObjectNode source = root.putObject("source");
        source.put("type", s.getSource().getType().wireName());
        source.put("schema", s.getSource().getSchema());
        source.put("table", s.getSource().getTable());
        source.put("connectionSecret", s.getSource().getConnectionSecretRef().getName());
        ObjectNode target = root.putObject("target");
        target.put("type", s.getTarget().getType().wireName());
        target.put("schema", s.getTarget().getSchema());
        target.put("table", s.getTarget().getTable());
        target.put("connectionSecret", s.getTarget().getConnectionSecretRef().getName());
        ArrayNode key = root.putArray("uniqueKey");
        s.getUniqueKey().forEach(key::add);
        io.dpone.backfill.core.campaign.ColumnMapping mapping = s.columnMapping();
        if (!mapping.sameNames()) {
            // Source column to target column; uniqueKey and the chunk column are source names.
            ObjectNode columns = root.putObject("columns");
            columns.put("naming", mapping.naming().wireName());
            ObjectNode pairs = columns.putObject("map");
            mapping.pairs().forEach(pairs::put);
        }
        ChunkPlan plan = b.plan();
        ObjectNode chunks = root.putObject("chunks");
        chunks.put("count", plan.size());
        chunks.put("kind", plan.kind().wireName());
        chunks.put("column", plan.column());
        if (plan.lowerBound() != null) {
            chunks.put("lowerBound", plan.lowerBound());
            chunks.put("upperBound", plan.upperBound());
        }
        root.put("parallelWorkers", s.getParallelWorkers());
        root.put("innerMode", s.getInnerMode().wireName());
        root.put("retryPolicy", s.getRetryPolicy() == io.dpone.backfill.core.campaign.RetryPolicy.NONE ? "none" : "non_committed");
        root.put("maxChunkAttempts", s.getMaxChunkAttempts());
        root.putObject("state").put("backend", "audit_schema").put("schema", s.getState().getSchema())
                .put("requireDistributedLock", s.getState().getRequireDistributedLock());
        ObjectNode publication = root.putObject("publication");
        publication.put("mode", s.getPublication().getMode().wireName());
        publication.put("artifactScope", s.getPublication().getArtifactScope().name().toLowerCase());
        publication.put("retainBackup", s.getPublication().getRetainBackup());
        publication.put("shadow", b.artifacts().schema() + "." + b.artifacts().shadowTable());
        publication.put("backup", b.artifacts().schema() + "." + b.artifacts().backupTable());
        io.dpone.backfill.core.campaign.PublicationGroup.of(s).ifPresent(g -> {
            // Which campaigns it publishes with, and the digest of the terms they must share (ADR 0041).
            ObjectNode group = publication.putObject("group");
            group.put("name", g.name());
            ArrayNode members = group.putArray("members");
            g.members().forEach(members::add);
            group.put("termsDigest", g.termsDigest());
        });
        if (withChunks) {
            ArrayNode list = root.putArray("chunkList");
            SourceAdapter reader = Connectors.source(s.getSource().getType());
            for (ChunkRange c : plan.chunks()) {
                ObjectNode n = list.addObject();
                n.put("id", c.id());
                n.put("lower", plan.boundText(c.lowerInclusive()));
                n.put("upper", plan.boundText(c.upperExclusive()));
                n.put("predicate", plan.resolved() ? reader.chunkCondition(plan, c) : UNRESOLVED);
            }
        }
        return root;
    }
}
