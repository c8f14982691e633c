package io.dpone.backfill.cli.bench;

/**
 * What every arm shares: the source, the generated table, the campaign (its chunk plan is also the chunked arms'
 * plan), the workers (lanes), how a campaign and a reconciliation pass are run and where its lanes report their heap.
 */
record ArmContext(BenchSource source, BenchTable table, long rows, int lanes, BenchCampaign campaign, SourceReads reads,
                  CampaignRunner campaigns, PassRunner passes, LaneHeapReports laneHeapReports) {
}
