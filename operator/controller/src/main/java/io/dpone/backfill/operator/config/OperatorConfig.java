package io.dpone.backfill.operator.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The operator's typed configuration ({@code backfill.operator.*}, or the matching environment variables such as
 * {@code BACKFILL_OPERATOR_LANE_IMAGE}); the one source of its defaults, documented in src-docs/operator.md.
 * Lease timings are the engine's and come from the same BACKFILL_* variables as the CLI's.
 */
@ConfigMapping(prefix = "backfill.operator")
public interface OperatorConfig {
    /** Owner id of the campaign leases this instance takes; defaults to the pod name (HOSTNAME). */
    Optional<String> instanceId();

    /** Reconcile interval while a campaign is active (at most 10 s). */
    @WithDefault("5s")
    Duration activePoll();

    /** Minimum interval between status patches that change only progress counters (at most 30 s). */
    @WithDefault("15s")
    Duration progressInterval();

    Lane lane();

    /** Namespace of the leader election Lease; defaults to the operator's own namespace. */
    Optional<String> leaderElectionNamespace();

    @WithDefault("backfill-operator-leader")
    String leaderElectionLeaseName();

    interface Lane {
        /** Image of lane pods when a campaign's spec.lane.image is not set. */
        @WithDefault("ghcr.io/dpone/backfill-lane:0.1.0")
        String image();

        /**
         * Further images a campaign's spec.lane.image may name, beside {@link #image()}; any other is refused before
         * a pod is created. Empty: the lane image alone.
         */
        Optional<List<String>> allowedImages();

        @WithDefault("IfNotPresent")
        String imagePullPolicy();

        /** The command that runs the `backfill` CLI in the lane image; the lane arguments follow it. */
        @WithDefault("backfill")
        List<String> command();

        @WithDefault("500m")
        String cpuRequest();

        @WithDefault("1Gi")
        String memoryRequest();

        @WithDefault("2")
        String cpuLimit();

        @WithDefault("2Gi")
        String memoryLimit();

        /** Service account of lane pods (its token is never mounted); empty: the namespace's default. */
        Optional<String> serviceAccount();

        /** UID (and GID) lane containers run as; never root. */
        @WithDefault("65532")
        long runAsUser();
    }
}
