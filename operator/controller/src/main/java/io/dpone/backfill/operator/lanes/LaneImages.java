package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.validation.FieldError;
import io.dpone.backfill.operator.config.OperatorSettings;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The images lane pods may run: the operator's own lane image and the ones its installer allowed beside it, never
 * one a campaign's author chose alone. A lane pod receives the connection Secrets' values, so its image decides who
 * holds the credentials (ADR 0045). References are compared exactly as written: a tag, a digest and a registry
 * mirror are each their own entry.
 */
public final class LaneImages {
    static final String FIELD = "spec.lane.image";
    private final Set<String> allowed;

    public LaneImages(OperatorSettings.LaneDefaults lanes) {
        this.allowed = lanes.allowedImages();
    }

    /** Why the campaign's lane image is refused, naming the field; empty when it names none or an allowed one. */
    public Optional<FieldError> refusal(BackfillCampaignSpec spec) {
        String image = spec == null || spec.getLane() == null ? null : spec.getLane().getImage();
        if (image == null || allowed.contains(image)) {
            return Optional.empty();
        }
        return Optional.of(new FieldError(FIELD, "allowedImage", "image " + image + " is not one this operator runs lanes from"
                + " (lane pods receive the connection Secrets' values); allowed: " + new TreeSet<>(allowed)
                + "; leave spec.lane.image out for the operator's lane image, or ask the operator's installer to allow it"
                + " (chart value lane.allowedImages)"));
    }

    /** The last guard before a pod is built: a refused image never reaches the API server, whatever the caller. */
    String require(String image) {
        if (!allowed.contains(image)) {
            throw new IllegalStateException("lane image " + image + " is not allowed: " + new TreeSet<>(allowed));
        }
        return image;
    }
}
