package io.dpone.backfill.cli.plan;

/** The campaign file the plan suites read: public.orders into a PostgreSQL target, keyed by id. */
final class OrdersCampaign {
    private OrdersCampaign() {
    }

    /** {@code chunk}: the spec's chunk as a flow mapping; {@code more}: further spec fields, indented as such. */
    static String yaml(String chunk, String more) {
        return """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata:
                  name: orders
                spec:
                  backfillId: orders_v1
                  source:
                    connectionSecretRef: {name: src-db}
                    table: orders
                  target:
                    type: postgres
                    connectionSecretRef: {name: tgt-db}
                    schema: public
                    table: orders
                  uniqueKey: [id]
                  chunk: %s
                %s""".formatted(chunk, more);
    }
}
