package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.ColumnsSpec;
import io.dpone.backfill.core.campaign.PublicationWindowSpec;
import io.dpone.backfill.core.campaign.PublicationGroupSpec;
import io.dpone.backfill.core.campaign.SwapWindow;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.core.campaign.LaneSpec;
import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.campaign.SourceSpec;
import io.dpone.backfill.core.campaign.StateSpec;
import io.dpone.backfill.core.campaign.TargetSpec;
import io.dpone.backfill.core.campaign.IdentifierLimit;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Presence, bounds and identifier rules of each spec field, before defaults are applied. */
final class StructureRules {
    private static final Pattern BACKFILL_ID = Pattern.compile(BackfillCampaignSpec.BACKFILL_ID_PATTERN);
    private static final Pattern QUANTITY = Pattern.compile(ResourceAmounts.QUANTITY_PATTERN);

    private StructureRules() {
    }

    static void check(BackfillCampaignSpec spec, Errors errors) {
        String id = spec.getBackfillId();
        if (errors.require(id, "spec.backfillId") && !BACKFILL_ID.matcher(id).matches()) {
            errors.add("spec.backfillId", "pattern", "must be 1-63 characters of letters, digits, '_', '.', '-', "
                    + "starting with a letter or digit, got '" + KubernetesNames.printable(id) + "'");
        }
        source(spec.getSource(), errors);
        TargetSpec target = spec.getTarget();
        IdentifierLimit targetLimit = target != null && target.getType() != null
                ? target.getType().identifierLimit() : IdentifierLimit.POSTGRES;
        target(target, targetLimit, errors);
        uniqueKey(spec.getUniqueKey(), targetLimit, errors);
        chunk(spec.getChunk(), targetLimit, errors);
        errors.range(spec.getParallelWorkers(), 1, BackfillCampaignSpec.MAX_PARALLEL_WORKERS, "spec.parallelWorkers");
        errors.range(spec.getMaxChunkAttempts(), 1, BackfillCampaignSpec.MAX_CHUNK_ATTEMPTS, "spec.maxChunkAttempts");
        state(spec.getState(), targetLimit, errors);
        columns(spec.getColumns(), targetLimit, errors);
        if (spec.getPublication() != null) {
            window(spec.getPublication().getWindow(), errors);
            group(spec.getPublication().getGroup(), target == null ? null : target.getTable(), targetLimit, errors);
        }
        lane(spec.getLane(), errors);
        throttle(spec.getThrottle(), errors);
        reconcile(spec.getReconcile(), errors);
        int planned = spec.getParallelWorkers() == null ? BackfillCampaignSpec.DEFAULT_PARALLEL_WORKERS : spec.getParallelWorkers();
        if (spec.getThrottle() != null && spec.getThrottle().getLanes() != null && spec.getThrottle().getLanes() > planned) {
            errors.add("spec.throttle.lanes", "range", "must not exceed spec.parallelWorkers (" + planned
                    + "), which is part of the campaign's identity; got " + spec.getThrottle().getLanes());
        }
    }

    /**
     * The passes before the handoff (issue 38, ADR 0057): {@code until} needs a stop rule besides its pass limit;
     * {@code once} and {@code none} take no bounds, which would otherwise be read as meaning something.
     */
    private static void reconcile(io.dpone.backfill.core.campaign.ReconcileSpec reconcile, Errors errors) {
        if (reconcile == null) {
            return;
        }
        errors.range(reconcile.getMaxPasses(), 1, io.dpone.backfill.core.campaign.ReconcileSpec.MAX_PASSES,
                "spec.reconcile.maxPasses");
        Long rows = reconcile.getMaxChangedRows();
        if (rows != null && (rows < 0 || rows > io.dpone.backfill.core.campaign.ReconcileSpec.MAX_CHANGED_ROWS)) {
            errors.add("spec.reconcile.maxChangedRows", "range", "must be between 0 and "
                    + io.dpone.backfill.core.campaign.ReconcileSpec.MAX_CHANGED_ROWS + ", got " + rows);
        }
        String deadline = reconcile.getDeadline();
        if (deadline != null) {
            var parsed = io.dpone.backfill.core.campaign.ReconcileSpec.parseDeadline(deadline);
            if (parsed.isEmpty()) {
                errors.add("spec.reconcile.deadline", "pattern", "must be a duration in hours, minutes and seconds such"
                        + " as 30m, 2h or 1h30m, got '" + KubernetesNames.printable(deadline) + "'");
            } else if (parsed.get().isZero() || parsed.get().compareTo(io.dpone.backfill.core.campaign.ReconcileSpec.MAX_DEADLINE) > 0) {
                errors.add("spec.reconcile.deadline", "range", "must be more than 0s and at most 720h (30 days), got '"
                        + deadline + "'");
            }
        }
        io.dpone.backfill.core.campaign.ReconcileMode mode = reconcile.getMode() == null
                ? io.dpone.backfill.core.campaign.ReconcileMode.NONE : reconcile.getMode();
        if (mode == io.dpone.backfill.core.campaign.ReconcileMode.UNTIL) {
            if (rows == null && deadline == null) {
                errors.add("spec.reconcile", "required", "mode until needs maxChangedRows, deadline or both: when to stop"
                        + " besides maxPasses");
            }
        } else {
            forbiddenOutsideUntil(rows, "maxChangedRows", mode, errors);
            forbiddenOutsideUntil(deadline, "deadline", mode, errors);
            forbiddenOutsideUntil(reconcile.getMaxPasses(), "maxPasses", mode, errors);
        }
    }

    private static void forbiddenOutsideUntil(Object bound, String field,
                                              io.dpone.backfill.core.campaign.ReconcileMode mode, Errors errors) {
        if (bound != null) {
            errors.add("spec.reconcile." + field, "forbidden", "applies to mode until only; mode is " + mode.wireName());
        }
    }

    static final int MAX_LOAD_WINDOWS = io.dpone.backfill.core.campaign.ThrottleSpec.MAX_WINDOWS;

    /** A ceiling is a positive number of rows or bytes a second; absent means none (issue 28). */
    private static void throttle(io.dpone.backfill.core.campaign.ThrottleSpec throttle, Errors errors) {
        if (throttle == null) {
            return;
        }
        perSecond(throttle.getRowsPerSecond(), "spec.throttle.rowsPerSecond", errors);
        perSecond(throttle.getBytesPerSecond(), "spec.throttle.bytesPerSecond", errors);
        errors.range(throttle.getLanes(), 1, BackfillCampaignSpec.MAX_PARALLEL_WORKERS, "spec.throttle.lanes");
        io.dpone.backfill.core.campaign.SourceGuardSpec guard = throttle.getSourceGuard();
        if (guard != null) {
            int max = io.dpone.backfill.core.campaign.SourceGuardSpec.MAX_BOUND;
            errors.range(guard.getMaxReplicaLagSeconds(), 1, max, "spec.throttle.sourceGuard.maxReplicaLagSeconds");
            errors.range(guard.getMaxActiveSessions(), 1, max, "spec.throttle.sourceGuard.maxActiveSessions");
            if (guard.getMaxReplicaLagSeconds() == null && guard.getMaxActiveSessions() == null) {
                errors.add("spec.throttle.sourceGuard", "required", "give maxReplicaLagSeconds, maxActiveSessions or both");
            }
        }
        if (throttle.getWindows() != null) {
            if (throttle.getWindows().size() > MAX_LOAD_WINDOWS) {
                errors.add("spec.throttle.windows", "size", "at most " + MAX_LOAD_WINDOWS + " windows, got " + throttle.getWindows().size());
            }
            for (int i = 0; i < throttle.getWindows().size(); i++) {
                window(throttle.getWindows().get(i), "spec.throttle.windows[" + i + "]", errors);
            }
        }
    }

    private static void perSecond(Long value, String path, Errors errors) {
        if (value != null && (value < 1 || value > io.dpone.backfill.core.campaign.ThrottleSpec.MAX_PER_SECOND)) {
            errors.add(path, "range", "must be between 1 and " + io.dpone.backfill.core.campaign.ThrottleSpec.MAX_PER_SECOND
                    + " (leave it out for no ceiling), got " + value);
        }
    }

    /** A window's times are HH:MM, different from each other, in a known time zone (issue 28). */
    private static void window(PublicationWindowSpec window, Errors errors) {
        window(window, "spec.publication.window", errors);
    }

    /** The same rules for the window at {@code path}: the publication window, or a load window (throttle.windows). */
    private static void window(PublicationWindowSpec window, String path, Errors errors) {
        if (window == null) {
            return;
        }
        if (errors.require(window.getFrom(), path + ".from")) {
            SwapWindow.timeProblem(window.getFrom()).ifPresent(p -> errors.add(path + ".from", "pattern", p));
        }
        if (errors.require(window.getTo(), path + ".to")) {
            SwapWindow.timeProblem(window.getTo()).ifPresent(p -> errors.add(path + ".to", "pattern", p));
        }
        if (window.getFrom() != null && window.getFrom().equals(window.getTo())) {
            errors.add(path + ".to", "window", "must differ from from: the window would be empty");
        }
        if (window.getTimeZone() != null) {
            SwapWindow.zoneProblem(window.getTimeZone()).ifPresent(p -> errors.add(path + ".timeZone", "time-zone", p));
        }
    }

    private static final Pattern GROUP_NAME = Pattern.compile(PublicationGroupSpec.NAME_PATTERN);

    /**
     * A group names itself as a DNS label and lists at least two distinct member tables, this campaign's own target
     * table among them (issue 27): the list is how every member knows when all of them are ready.
     */
    private static void group(PublicationGroupSpec group, String ownTable,
                              IdentifierLimit targetLimit, Errors errors) {
        if (group == null) {
            return;
        }
        if (errors.require(group.getName(), "spec.publication.group.name") && !GROUP_NAME.matcher(group.getName()).matches()) {
            errors.add("spec.publication.group.name", "pattern", "must be a DNS label (1-63 lower-case letters, digits"
                    + " and '-', starting and ending with a letter or digit), got '" + KubernetesNames.printable(group.getName()) + "'");
        }
        if (!errors.require(group.getMembers(), "spec.publication.group.members")) {
            return;
        }
        List<String> members = group.getMembers();
        if (members.size() < 2 || members.size() > PublicationGroupSpec.MAX_MEMBERS) {
            errors.add("spec.publication.group.members", "size", "must list 2 to "
                    + PublicationGroupSpec.MAX_MEMBERS + " member tables, got " + members.size()
                    + ": a group of one is a campaign without a group");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < members.size(); i++) {
            String path = "spec.publication.group.members[" + i + "]";
            if (!errors.require(members.get(i), path)) {
                continue;
            }
            errors.identifier(members.get(i), path, targetLimit);
            if (members.get(i).contains(".")) {
                // Read as a table of the campaign's own schema, "sales.customers" would never be the table the
                // author meant (issue 40): every member is in the target schema, named without it.
                errors.add(path, "member-schema", "'" + KubernetesNames.printable(members.get(i)) + "' looks schema-qualified:"
                        + " every member is a table of this campaign's target schema, named without the schema");
            }
            if (!seen.add(members.get(i))) {
                errors.add(path, "unique-items", "lists table '" + KubernetesNames.printable(members.get(i)) + "' twice");
            }
        }
        if (ownTable != null && !members.contains(ownTable)) {
            errors.add("spec.publication.group.members", "own-table", "must list this campaign's own target table '"
                    + KubernetesNames.printable(ownTable) + "': every member lists the whole group, itself included");
        }
    }

    /** Each pair names a source and a target column; no target column is loaded from two sources (issue 27). */
    private static void columns(ColumnsSpec columns, IdentifierLimit targetLimit, Errors errors) {
        if (columns == null || columns.getMap() == null) {
            return;
        }
        java.util.Map<String, String> loadedFrom = new java.util.TreeMap<>();
        for (java.util.Map.Entry<String, String> pair : new java.util.TreeMap<>(columns.getMap()).entrySet()) {
            String path = "spec.columns.map." + KubernetesNames.printable(pair.getKey());
            errors.identifier(pair.getKey(), path, IdentifierLimit.POSTGRES);
            if (!errors.require(pair.getValue(), path)) {
                continue;
            }
            errors.identifier(pair.getValue(), path, targetLimit);
            String other = loadedFrom.putIfAbsent(pair.getValue(), pair.getKey());
            if (other != null) {
                errors.add(path, "unique-values", "source columns '" + KubernetesNames.printable(other) + "' and '"
                        + KubernetesNames.printable(pair.getKey()) + "' both load target column '"
                        + KubernetesNames.printable(pair.getValue()) + "': a target column has one source column");
            }
        }
    }

    private static void source(SourceSpec source, Errors errors) {
        if (!errors.require(source, "spec.source")) {
            return;
        }
        if (errors.require(source.getConnectionSecretRef(), "spec.source.connectionSecretRef")) {
            KubernetesNames.secretName(source.getConnectionSecretRef().getName(), "spec.source.connectionSecretRef.name", errors);
        }
        if (source.getSchema() != null) {
            errors.identifier(source.getSchema(), "spec.source.schema", IdentifierLimit.POSTGRES);
        }
        if (errors.require(source.getTable(), "spec.source.table")) {
            errors.identifier(source.getTable(), "spec.source.table", IdentifierLimit.POSTGRES);
        }
    }

    private static void target(TargetSpec target, IdentifierLimit limit, Errors errors) {
        if (!errors.require(target, "spec.target")) {
            return;
        }
        errors.require(target.getType(), "spec.target.type");
        if (errors.require(target.getConnectionSecretRef(), "spec.target.connectionSecretRef")) {
            KubernetesNames.secretName(target.getConnectionSecretRef().getName(), "spec.target.connectionSecretRef.name", errors);
        }
        if (target.getSchema() != null) {
            errors.identifier(target.getSchema(), "spec.target.schema", limit);
        }
        if (errors.require(target.getTable(), "spec.target.table")) {
            errors.identifier(target.getTable(), "spec.target.table", limit);
        }
    }

    private static void uniqueKey(List<String> columns, IdentifierLimit targetLimit, Errors errors) {
        if (columns == null || columns.isEmpty()) {
            errors.add("spec.uniqueKey", "required", "needs at least one column: publication validates it for nulls and duplicates");
            return;
        }
        if (columns.size() > BackfillCampaignSpec.MAX_UNIQUE_KEY_COLUMNS) {
            errors.add("spec.uniqueKey", "max-items", "allows at most " + BackfillCampaignSpec.MAX_UNIQUE_KEY_COLUMNS + " columns");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            String path = "spec.uniqueKey[" + i + "]";
            // Key columns exist in source and target alike, so both engines' limits apply.
            errors.identifier(column, path, IdentifierLimit.POSTGRES, targetLimit);
            if (column != null && !seen.add(column)) {
                errors.add(path, "unique-items", "column '" + KubernetesNames.printable(column) + "' is listed twice");
            }
        }
    }

    private static void chunk(ChunkSpec chunk, IdentifierLimit targetLimit, Errors errors) {
        if (!errors.require(chunk, "spec.chunk")) {
            return;
        }
        errors.require(chunk.getKind(), "spec.chunk.kind");
        if (chunk.getKind() == ChunkKind.PHYSICAL) {
            physical(chunk, errors);
        } else if (errors.require(chunk.getColumn(), "spec.chunk.column")) {
            errors.identifier(chunk.getColumn(), "spec.chunk.column", IdentifierLimit.POSTGRES, targetLimit);
        }
        errors.range(chunk.getBuckets(), 1, ChunkSpec.MAX_BUCKETS, "spec.chunk.buckets");
        if (chunk.getKind() == ChunkKind.UUID) {
            if (chunk.getLowerBound() != null) {
                errors.add("spec.chunk.lowerBound", "kind", "applies only to kind integer; uuid chunks cover the whole UUID space");
            }
            if (chunk.getUpperBound() != null) {
                errors.add("spec.chunk.upperBound", "kind", "applies only to kind integer; uuid chunks cover the whole UUID space");
            }
        } else if (chunk.getKind() == ChunkKind.INTEGER) {
            integerBounds(chunk, errors);
        }
    }

    /** Physical chunks are block ranges: a column or key bounds would suggest a key order they do not have. */
    private static void physical(ChunkSpec chunk, Errors errors) {
        if (chunk.getColumn() != null) {
            errors.add("spec.chunk.column", "kind", "must be absent for kind physical: physical chunks are block ranges"
                    + " of the source heap, not ranges of a column (remove it, or use kind uuid or integer)");
        }
        if (chunk.getLowerBound() != null) {
            errors.add("spec.chunk.lowerBound", "kind", "applies only to kind integer; physical chunks are planned from the"
                    + " heap's size at preparation");
        }
        if (chunk.getUpperBound() != null) {
            errors.add("spec.chunk.upperBound", "kind", "applies only to kind integer; physical chunks are planned from the"
                    + " heap's size at preparation");
        }
    }

    private static void integerBounds(ChunkSpec chunk, Errors errors) {
        boolean lower = errors.require(chunk.getLowerBound(), "spec.chunk.lowerBound");
        boolean upper = errors.require(chunk.getUpperBound(), "spec.chunk.upperBound");
        if (!lower || !upper) {
            return;
        }
        if (chunk.getLowerBound() > chunk.getUpperBound()) {
            errors.add("spec.chunk.upperBound", "bounds", "must be at least lowerBound (" + chunk.getLowerBound() + ")");
            return;
        }
        BigInteger span = BigInteger.valueOf(chunk.getUpperBound()).subtract(BigInteger.valueOf(chunk.getLowerBound())).add(BigInteger.ONE);
        int buckets = chunk.getBuckets() == null ? ChunkSpec.DEFAULT_BUCKETS : chunk.getBuckets();
        if (span.compareTo(BigInteger.valueOf(buckets)) < 0) {
            errors.add("spec.chunk.buckets", "bounds", "must not exceed the " + span + " keys between lowerBound and upperBound");
        }
    }

    private static void state(StateSpec state, IdentifierLimit targetLimit, Errors errors) {
        if (state != null && state.getSchema() != null) {
            errors.identifier(state.getSchema(), "spec.state.schema", targetLimit);
        }
    }

    private static void lane(LaneSpec lane, Errors errors) {
        if (lane == null) {
            return;
        }
        if (lane.getImage() != null && (lane.getImage().isBlank() || lane.getImage().chars().anyMatch(c -> c <= ' '))) {
            errors.add("spec.lane.image", "image", "must be an image reference without whitespace");
        }
        errors.range(lane.getMaxPodFailures(), 0, LaneSpec.MAX_POD_FAILURES, "spec.lane.maxPodFailures");
        if (lane.getNodeSelector() != null) {
            lane.getNodeSelector().forEach((k, v) -> {
                KubernetesNames.labelKey(k, "spec.lane.nodeSelector." + k, errors);
                KubernetesNames.labelValue(v, "spec.lane.nodeSelector." + k, errors);
            });
        }
        if (lane.getResources() != null) {
            quantities(lane.getResources().getRequests(), "spec.lane.resources.requests", errors);
            quantities(lane.getResources().getLimits(), "spec.lane.resources.limits", errors);
            requestsWithinLimits(lane.getResources().getRequests(), lane.getResources().getLimits(), errors);
        }
    }

    /**
     * Both given and the request above the limit: the API server refuses every lane pod (422), so the campaign is
     * refused here, naming the field. A request or limit left to the operator's defaults is adjusted to the given
     * one instead (the operator's LanePodFactory, ADR 0030).
     */
    private static void requestsWithinLimits(ResourceAmounts requests, ResourceAmounts limits, Errors errors) {
        if (requests == null || limits == null) {
            return;
        }
        if (Quantities.exceeds(requests.getCpu(), limits.getCpu())) {
            errors.add("spec.lane.resources.requests.cpu", "request-above-limit", "must be less than or equal to spec.lane.resources.limits.cpu ("
                    + requests.getCpu() + " > " + limits.getCpu() + "): the API server refuses such a pod");
        }
        if (Quantities.exceeds(requests.getMemory(), limits.getMemory())) {
            errors.add("spec.lane.resources.requests.memory", "request-above-limit", "must be less than or equal to spec.lane.resources.limits.memory ("
                    + requests.getMemory() + " > " + limits.getMemory() + "): the API server refuses such a pod");
        }
    }

    private static void quantities(ResourceAmounts amounts, String path, Errors errors) {
        if (amounts == null) {
            return;
        }
        if (amounts.getCpu() != null && !QUANTITY.matcher(amounts.getCpu()).matches()) {
            errors.add(path + ".cpu", "quantity", "must be a Kubernetes quantity such as 500m or 2");
        }
        if (amounts.getMemory() != null && !QUANTITY.matcher(amounts.getMemory()).matches()) {
            errors.add(path + ".memory", "quantity", "must be a Kubernetes quantity such as 512Mi or 2Gi");
        }
    }
}
