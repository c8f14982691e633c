package io.dpone.backfill.operator.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;

/**
 * The status as JSON (plain Jackson over core's status classes), for the status patch, deep copies and size checks.
 */
public final class StatusJson {
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private StatusJson() {
    }

    public static String write(BackfillCampaignStatus status) {
        try {
            return JSON.writeValueAsString(status);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static BackfillCampaignStatus read(String json) {
        try {
            return JSON.readValue(json, BackfillCampaignStatus.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static int size(BackfillCampaignStatus status) {
        return write(status).length();
    }
}
