package io.dpone.backfill.core.source;

/**
 * How busy the source is, as its primary sees it (issue 28): the largest lag of its replicas in seconds (null when
 * it has none, or none reports a lag) and its active sessions, backfill's own not counted.
 */
public record SourceLoad(Double replicaLagSeconds, int activeSessions) {
}
