package io.dpone.backfill.core.publish;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The reviewed live target as preparation found it: its catalog shape (columns, constraints, indexes) and its
 * content fingerprint. Every chunk checks the shape against it; publication checks both inside the swap's
 * transaction, so nothing that reached the live table during the campaign is hidden in the backup.
 */
public record LiveTargetBaseline(TableShape shape, String fingerprint) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public TableFingerprint content() {
        return TableFingerprint.decode(fingerprint);
    }

    public String json() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the live target baseline", e);
        }
    }

    public static LiveTargetBaseline parse(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            return JSON.readValue(json, LiveTargetBaseline.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the ledger's live target baseline cannot be read: " + e.getMessage(), e);
        }
    }
}
