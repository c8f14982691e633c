package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.redaction.CredentialScrubber;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Merges the conditions a pass wants with the ones the status has: a condition keeps its {@code lastTransitionTime}
 * unless its status really changes (True/False/Unknown), so repeated passes write identical conditions and the
 * status is not rewritten for nothing. Order follows the wanted list.
 */
public final class ConditionSet {
    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";
    private static final int MAX_MESSAGE = 1024;

    private ConditionSet() {
    }

    public static List<CampaignCondition> merge(List<CampaignCondition> previous, List<CampaignCondition> wanted, Instant now,
                                                Long generation) {
        List<CampaignCondition> merged = new ArrayList<>();
        String stamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
        for (CampaignCondition w : wanted) {
            CampaignCondition old = previous == null ? null : previous.stream()
                    .filter(p -> Objects.equals(p.getType(), w.getType())).findFirst().orElse(null);
            String transition = old != null && Objects.equals(old.getStatus(), w.getStatus()) && old.getLastTransitionTime() != null
                    ? old.getLastTransitionTime() : stamp;
            merged.add(new CampaignCondition(w.getType(), w.getStatus(), w.getReason(), bounded(w.getMessage()), transition, generation));
        }
        return merged;
    }

    public static CampaignCondition wanted(String type, boolean status, String reason, String message) {
        return new CampaignCondition(type, status ? TRUE : FALSE, reason, message, null, null);
    }

    public static boolean isTrue(List<CampaignCondition> conditions, String type) {
        return find(conditions, type).map(c -> TRUE.equals(c.getStatus())).orElse(false);
    }

    public static java.util.Optional<CampaignCondition> find(List<CampaignCondition> conditions, String type) {
        return conditions == null ? java.util.Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** Scrubbed before it is cut: a cut through a credential would leave a part the scrubber no longer knows. */
    static String bounded(String text) {
        if (text == null) {
            return "";
        }
        String message = CredentialScrubber.scrub(text);
        return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message;
    }
}
