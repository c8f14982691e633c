package io.dpone.backfill.operator.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.redaction.CredentialScrubber;

import java.util.Map;

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

    /**
     * The status with every text in it scrubbed of credentials: the one filter before the status subresource, which
     * anyone who may read the campaign reads, Secret access or not (ADR 0043). Every field, not only the messages we
     * know of, so a field added later cannot carry a driver's message past it.
     */
    public static BackfillCampaignStatus scrubbed(BackfillCampaignStatus status) {
        if (status == null) {
            return null;
        }
        try {
            return JSON.treeToValue(scrub(JSON.valueToTree(status)), BackfillCampaignStatus.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode scrub(JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(CredentialScrubber.scrub(node.asText()));
        }
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                field.setValue(scrub(field.getValue()));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, scrub(array.get(i)));
            }
        }
        return node;
    }

    public static int size(BackfillCampaignStatus status) {
        return write(status).length();
    }
}
