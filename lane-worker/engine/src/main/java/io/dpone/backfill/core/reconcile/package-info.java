/**
 * Reconciliation passes after publication (issue 38, ADR 0054): each pass reads the source under one new snapshot
 * and brings the published table to it, chunk by chunk, exactly once per chunk, never overwriting or deleting a
 * row someone else wrote into the published table (that row's key waits in the queue for a decision).
 */
package io.dpone.backfill.core.reconcile;
