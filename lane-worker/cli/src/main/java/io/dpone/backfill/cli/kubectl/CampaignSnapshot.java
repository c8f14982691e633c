package io.dpone.backfill.cli.kubectl;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.Comparator;
import java.util.List;

/**
 * What {@code kubectl backfill status} shows, read once: the campaign's status (core's class; fields this build does
 * not know are ignored, so a newer operator's status still reads), its lane pods and its most recent Events.
 */
public record CampaignSnapshot(String namespace, String name, Long generation, BackfillCampaignStatus status, List<LaneState> lanes,
                        List<EventLine> events) {
    static final int MAX_EVENTS = 8;
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    static CampaignSnapshot read(KubernetesClient client, String namespace, String name) {
        GenericKubernetesResource campaign = Campaigns.get(client, namespace, name);
        Object raw = campaign.getAdditionalProperties().get("status");
        BackfillCampaignStatus status = raw == null ? null : JSON.convertValue(raw, BackfillCampaignStatus.class);
        List<LaneState> lanes = client.pods().inNamespace(namespace)
                .withLabel(LaneState.MANAGED_BY, LaneState.MANAGED_BY_VALUE).withLabel(LaneState.CAMPAIGN, name)
                .list().getItems().stream().map(LaneState::of).sorted(LaneState.ORDER).toList();
        List<EventLine> events = client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> e.getInvolvedObject() != null && name.equals(e.getInvolvedObject().getName())
                        && Campaigns.KIND.equals(e.getInvolvedObject().getKind()))
                .map(EventLine::of).sorted(Comparator.comparing(EventLine::at)).toList();
        List<EventLine> recent = events.subList(Math.max(0, events.size() - MAX_EVENTS), events.size());
        return new CampaignSnapshot(namespace, name, campaign.getMetadata().getGeneration(), status, lanes, List.copyOf(recent));
    }

}
