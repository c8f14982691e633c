package io.dpone.backfill.testsupport.postgres;

/**
 * The text of a PostgreSQL-to-PostgreSQL {@code BackfillCampaign} a user would write, copying {@code public.items}
 * (by default) by its {@code id}. Unset parts keep the defaults below; {@link #render()} gives the YAML.
 */
public final class CampaignYaml {
    private final String backfillId;
    private String name = "items";
    private String namespace;
    private String sourceSecret = "src-db";
    private String targetSecret = "tgt-db";
    private String table = "items";
    private String uniqueKey = "id";
    private String chunk = uuidChunks(8);
    private int parallelWorkers = 1;
    private Integer maxChunkAttempts;
    private boolean shadowSwap;
    private String extraSpec = "";

    private CampaignYaml(String backfillId) {
        this.backfillId = backfillId;
    }

    public static CampaignYaml campaign(String backfillId) {
        return new CampaignYaml(backfillId);
    }

    /** A chunk plan over a uuid {@code id} in {@code buckets} equal ranges, as a YAML flow mapping. */
    public static String uuidChunks(int buckets) {
        return "{column: id, kind: uuid, buckets: " + buckets + "}";
    }

    /** A plan of {@code buckets} block ranges of the source heap (ADR 0015), as a YAML flow mapping. */
    public static String physicalChunks(int buckets) {
        return "{kind: physical, buckets: " + buckets + "}";
    }

    /** {@code metadata.name}; default {@code items}. */
    public CampaignYaml name(String name) {
        this.name = name;
        return this;
    }

    /** {@code metadata.namespace}; default none. */
    public CampaignYaml namespace(String namespace) {
        this.namespace = namespace;
        return this;
    }

    /** The names of the connection Secrets; default {@code src-db} and {@code tgt-db}. */
    public CampaignYaml secrets(String source, String target) {
        this.sourceSecret = source;
        this.targetSecret = target;
        return this;
    }

    /** The table on both sides; default {@code items}. */
    public CampaignYaml table(String table) {
        this.table = table;
        return this;
    }

    /** The unique key columns; default {@code [id]}. */
    public CampaignYaml uniqueKey(String... columns) {
        this.uniqueKey = String.join(", ", columns);
        return this;
    }

    /** {@code spec.chunk} as a YAML flow mapping; default {@link #uuidChunks uuidChunks(8)}. */
    public CampaignYaml chunk(String flowMapping) {
        this.chunk = flowMapping;
        return this;
    }

    /** Default 1. */
    public CampaignYaml parallelWorkers(int lanes) {
        this.parallelWorkers = lanes;
        return this;
    }

    /** Default: not written, so the model's default applies. */
    public CampaignYaml maxChunkAttempts(int attempts) {
        this.maxChunkAttempts = attempts;
        return this;
    }

    /** {@code publication: {mode: shadow_swap}}; default: not written. */
    public CampaignYaml shadowSwap() {
        this.shadowSwap = true;
        return this;
    }

    /** Lines appended to the spec as they are: two-space indented YAML, each ending in a newline. */
    public CampaignYaml extraSpec(String lines) {
        this.extraSpec = lines;
        return this;
    }

    public String render() {
        StringBuilder yaml = new StringBuilder()
                .append("apiVersion: backfill.dpone.io/v1alpha1\n")
                .append("kind: BackfillCampaign\n")
                .append("metadata: {name: ").append(name).append(namespace == null ? "" : ", namespace: " + namespace).append("}\n")
                .append("spec:\n")
                .append("  backfillId: ").append(backfillId).append('\n')
                .append("  source: {connectionSecretRef: {name: ").append(sourceSecret).append("}, table: ").append(table).append("}\n")
                .append("  target: {type: postgres, connectionSecretRef: {name: ").append(targetSecret).append("}, table: ")
                .append(table).append("}\n")
                .append("  uniqueKey: [").append(uniqueKey).append("]\n")
                .append("  chunk: ").append(chunk).append('\n')
                .append("  parallelWorkers: ").append(parallelWorkers).append('\n');
        if (maxChunkAttempts != null) {
            yaml.append("  maxChunkAttempts: ").append(maxChunkAttempts).append('\n');
        }
        if (shadowSwap) {
            yaml.append("  publication: {mode: shadow_swap}\n");
        }
        return yaml.append(extraSpec).toString();
    }

    @Override
    public String toString() {
        return render();
    }
}
