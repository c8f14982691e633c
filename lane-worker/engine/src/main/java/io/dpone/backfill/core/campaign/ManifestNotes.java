package io.dpone.backfill.core.campaign;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the model's annotations cannot say about a spec field, for the generated manifest reference: the rule the
 * validator applies, a default that depends on another field or on the operator, and a type more precise than the
 * Java one. Descriptions and bounds come from the model itself ({@code @JsonPropertyDescription}, {@code @Min},
 * {@code @Max}, {@code @Size}, {@code @Pattern}). A note for a path the model does not have fails the reference test.
 */
final class ManifestNotes {
    /** {@code type} and {@code defaultValue} are null when the model's own are right. */
    record Note(String type, String defaultValue, String rule) {
    }

    static final String IDENTIFIER = "identifier";
    static final Map<String, Note> NOTES = notes();

    private ManifestNotes() {
    }

    private static Map<String, Note> notes() {
        Map<String, Note> n = new LinkedHashMap<>();
        n.put("spec.backfillId", rule("The campaign identity: a changed plan or policy needs a new `backfillId`."));
        n.put("spec.source.type", rule("only PostgreSQL sources"));
        n.put("spec.source.connectionSecretRef.name", rule("Secret in the campaign's namespace (see [Secrets](#connection-secrets))"));
        n.put("spec.source.schema", new Note(IDENTIFIER, null, "[identifier rules](#identifier-rules), PostgreSQL"));
        n.put("spec.source.table", new Note(IDENTIFIER, null, "[identifier rules](#identifier-rules), PostgreSQL"));
        n.put("spec.target.type", rule("selects the dialect and identifier limits"));
        n.put("spec.target.connectionSecretRef.name", rule("Secret in the campaign's namespace; the ledger lives in this database too"));
        n.put("spec.target.schema", new Note(IDENTIFIER, "`dbo` (mssql), `public` (postgres)", "[identifier rules](#identifier-rules) of the target"));
        n.put("spec.target.table", new Note(IDENTIFIER, null, "the reviewed, provisioned live table; may not be the source table itself (same Secret, schema and table)"));
        n.put("spec.uniqueKey", new Note("list of identifiers", null, "distinct columns; checked against both engines' limits; validated for NULLs and duplicates before publication"));
        n.put("spec.chunk.column", new Note(IDENTIFIER, "required for `uuid` and `integer`", "non-null, range-addressable source column; forbidden for `physical`"));
        n.put("spec.chunk.kind", rule("`uuid`: the whole 128-bit space; `integer`: planned bounds with open-ended first and last chunks;"
                + " `physical`: block ranges of the heap planned at preparation, only row versions older than the XMin anchor (ADR 0015)"));
        n.put("spec.chunk.buckets", rule("for `integer`, at most `upperBound - lowerBound + 1`"));
        n.put("spec.chunk.lowerBound", new Note(null, "required for `integer`", "forbidden for `uuid` and `physical`; keys below it land in the first chunk"));
        n.put("spec.chunk.upperBound", new Note(null, "required for `integer`", "at least `lowerBound`; keys above it land in the last chunk"));
        n.put("spec.innerMode", rule("`incremental_merge`, `replace`, `partition_replace` belong to incremental pipelines and are rejected"));
        n.put("spec.onlyNewRows", rule("must be `false`: an initial load copies every row"));
        n.put("spec.retryPolicy", rule("failed chunks are retried within `maxChunkAttempts`; committed chunks never run again"));
        n.put("spec.maxChunkAttempts", new Note(null, "`5` (`1` with `none`)", "must be 1 with `retryPolicy: none`"));
        n.put("spec.state.backend", rule("the ledger is a schema in the target database, so receipts commit with the rows"));
        n.put("spec.state.schema", new Note(IDENTIFIER, null, "[identifier rules](#identifier-rules) of the target"));
        n.put("spec.state.requireDistributedLock", rule("must be `true`: the database lease fences lanes and drivers"));
        n.put("spec.publication.mode", rule("`direct` appends to the live table exactly once; `shadow_swap` loads a shadow, validates it and swaps it in atomically"));
        n.put("spec.publication.retainBackup", rule("must be `true`: backups are deleted only explicitly"));
        n.put("spec.publication.artifactScope", rule("`campaign` adds a digest of `backfillId` to shadow and backup names"));
        n.put("spec.publication.verify", new Note(null, "`content`", "`shadow_swap` only: `content` blocks publication"
                + " (`ContentMismatch`) when what the target stored differs from what the lanes sent (ADR 0036); `counts`"
                + " checks counts and keys only. Left out of the normalised spec when `content`, so older run keys hold"));
        n.put("spec.publication.approval", new Note(null, "`automatic`", "`shadow_swap` only: `manual` keeps a validated"
                + " campaign in `Publishing` until a person approves (`backfill publish`, `kubectl backfill publish`,"
                + " annotation `backfill.dpone.io/approve`); the first approval stands and the publication receipt"
                + " records who and when. Left out of the normalised spec when `automatic`, so older run keys hold"));
        n.put("spec.publication.group.name", new Note("DNS label", null, "`shadow_swap` only: campaigns naming the same"
                + " group wait for each other validated and publish in one transaction, roll back together; a group"
                + " name is used for one load (a later load names another group)"));
        n.put("spec.publication.group.members", new Note("2-100 table names", null, "every member's live target table,"
                + " this one's included, in the campaign's target schema; the same list (and the same approval and"
                + " window) in every member, or the group waits and says which member disagrees"));
        n.put("spec.publication.window.from", new Note("HH:MM", null, "`shadow_swap` only: the swap (and the handoff"
                + " after it) waits until the daily window opens; validation and the read-back gate finish first. The"
                + " live-table baseline still guards the swap (ADR 0008)"));
        n.put("spec.publication.window.to", new Note("HH:MM", null, "exclusive; earlier than `from` spans midnight;"
                + " equal to `from` is refused"));
        n.put("spec.publication.window.timeZone", new Note("IANA zone", "`UTC`", "local wall-clock times, kept across"
                + " daylight-saving changes"));
        n.put("spec.columns.naming", new Note(null, "`exact`", "how a target column is named after a source column no"
                + " pair names: `exact`, `case-insensitive`, `snake-to-pascal` (`album_id` loads `AlbumId`) or `snake-to-camel`"
                + " (`albumId`); two source columns for one target column is an error. Part of the plan digest; `uniqueKey`"
                + " and `chunk.column` name source columns"));
        n.put("spec.columns.map", new Note("source column: target column", null, "explicit pairs, before the naming rule;"
                + " no target column twice (`unique-values`); a pair naming a column either table lacks is refused by"
                + " `doctor` and by preparation"));
        n.put("spec.lane.image", new Note(null, "operator default", "may change at any time (not part of the digest)"));
        n.put("spec.lane.imagePullPolicy", new Note(null, "cluster default", ""));
        for (String kind : new String[] {"requests", "limits"}) {
            for (String resource : new String[] {"cpu", "memory"}) {
                n.put("spec.lane.resources." + kind + "." + resource, new Note("quantity", "operator default", "Kubernetes quantity syntax (`500m`, `2`, `1Gi`)"));
            }
        }
        n.put("spec.lane.nodeSelector", new Note(null, "none", "label syntax"));
        n.put("spec.lane.maxPodFailures", rule("lane pod failures replaced before the campaign turns Recoverable"));
        n.put("spec.throttle.rowsPerSecond", rule("campaign-wide, shared by the lanes; may change at any time,"
                + " never changes the run key"));
        n.put("spec.throttle.bytesPerSecond", rule("campaign-wide, shared by the lanes; may change at any time,"
                + " never changes the run key"));
        n.put("spec.throttle.sourceGuard.maxReplicaLagSeconds", rule("pauses claims over the bound, resumes below 80%"
                + " of it; read on the primary; may change at any time"));
        n.put("spec.throttle.sourceGuard.maxActiveSessions", rule("pauses claims over the bound, resumes below 80% of"
                + " it; backfill's own sessions not counted; may change at any time"));
        n.put("spec.throttle.lanes", new Note(null, "`spec.parallelWorkers`", "at most `spec.parallelWorkers`; may change"
                + " at any time, never changes the run key"));
        n.put("spec.throttle.windows", new Note("list of `{from, to, timeZone}` (as `spec.publication.window`)", null,
                "at most 8; each as the publication window: `HH:MM`, `to` earlier than `from` spans midnight; may change"
                        + " at any time"));
        n.put("spec.reconcile.mode", new Note(null, "`none`", "`once` or `until`: the drivers run the passes after publication"
                + " and before the handoff, which carries the last pass's anchor (ADR 0057); part of the campaign's identity"));
        n.put("spec.reconcile.maxChangedRows", rule("`until` only; with `deadline`, `maxChangedRows` or both"));
        n.put("spec.reconcile.deadline", new Note("duration (`h`, `m`, `s`)", null, "`until` only; more than 0s, at most 720h"));
        n.put("spec.reconcile.maxPasses", new Note(null, "5 (`until`)", "`until` only"));
        n.put("spec.suspend", rule("`true`: no new chunk claims, running chunks drain; may change at any time"));
        return n;
    }

    private static Note rule(String rule) {
        return new Note(null, null, rule);
    }
}
