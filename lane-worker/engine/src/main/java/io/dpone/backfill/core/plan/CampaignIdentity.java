package io.dpone.backfill.core.plan;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.TargetSpec;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.digest.Sha256;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Who a campaign is: the plan digest (over the canonical chunk plan), the config digest (over the normalised
 * execution policy) and the run key that binds them to the backfill id and target. Ledger rows, receipts and the
 * shadow's owner stamp all carry the run key, so a changed policy can never resume another policy's work.
 */
public record CampaignIdentity(String planDigest, String configDigest, String runKey) {
    static final String PLAN_FORMAT = "backfill-plan/v1";
    static final String CONFIG_FORMAT = "backfill-config/v1";
    static final String RUN_KEY_FORMAT = "backfill-runkey/v1";
    static final int RUN_KEY_HEX_CHARS = 24;

    public static CampaignIdentity of(BackfillCampaignSpec normalised, ChunkPlan plan) {
        // Which source column loads which target column is part of what is loaded (issue 27); a campaign without a
        // mapping keeps the digest it always had.
        ColumnMapping mapping = normalised.columnMapping();
        String planDigest = mapping.sameNames() ? planDigest(plan)
                : Sha256.hex(PLAN_FORMAT + "\n" + planDigest(plan) + "\ncolumns " + mapping.describe());
        String configDigest = configDigest(normalised);
        TargetSpec t = normalised.getTarget();
        String target = t.getType().wireName() + ":" + t.getConnectionSecretRef().getName() + "/" + t.getSchema() + "." + t.getTable();
        String runKey = "rk-" + Sha256.hex(String.join("\u0000", RUN_KEY_FORMAT, normalised.getBackfillId(), target,
                planDigest, configDigest)).substring(0, RUN_KEY_HEX_CHARS);
        return new CampaignIdentity(planDigest, configDigest, runKey);
    }

    /**
     * Digest of the execution policy: everything but {@code suspend}, {@code lane} and {@code throttle}, which steer
     * how lanes run, not what is loaded where (a throttle changed on a running campaign keeps its run key).
     */
    public static String configDigest(BackfillCampaignSpec normalised) {
        BackfillCampaignSpec policy = normalised.copy();
        policy.setSuspend(null);
        policy.setLane(null);
        policy.setThrottle(null);
        return Sha256.hex(CONFIG_FORMAT + "\n" + CanonicalJson.write(policy));
    }

    /** Streams the canonical plan into the digest so a 16k-chunk plan never becomes one large string. */
    public static String planDigest(ChunkPlan plan) {
        MessageDigest digest = Sha256.newDigest();
        try (OutputStream out = new DigestOutputStream(OutputStream.nullOutputStream(), digest);
             JsonGenerator g = CanonicalJson.mapper().getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("format", PLAN_FORMAT);
            g.writeStringField("kind", plan.kind().wireName());
            g.writeStringField("column", plan.column());
            if (plan.lowerBound() != null) {
                g.writeNumberField("lowerBound", plan.lowerBound());
                g.writeNumberField("upperBound", plan.upperBound());
            }
            g.writeArrayFieldStart("chunks");
            for (ChunkRange c : plan.chunks()) {
                g.writeStartArray();
                g.writeString(plan.boundText(c.lowerInclusive()));
                g.writeString(plan.boundText(c.upperExclusive()));
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
