package io.dpone.backfill.operator.support.rbac;

import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRuleBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectRulesReviewStatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * In front of the mock API server's CRUD dispatcher: records every request whose User-Agent is the operator's (the
 * test's own client, playing kubectl and kubelet, is not recorded), and answers SelfSubjectRulesReviews, which the
 * mock refuses with 422, the way a real API server would for the operator's ServiceAccount under the chart's default
 * RBAC (JOSDK's leader election checks the Lease rules that way before it starts).
 */
public final class RecordingDispatcher extends Dispatcher {
    public static final String OPERATOR_USER_AGENT = "backfill-operator-under-test";

    private final Dispatcher delegate;
    private final List<ApiRequest> recorded = new CopyOnWriteArrayList<>();
    private final KubernetesSerialization json = new KubernetesSerialization();

    public RecordingDispatcher(Dispatcher delegate) {
        this.delegate = delegate;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        ApiRequest info = ApiRequest.of(request.getMethod(), request.getPath());
        if (OPERATOR_USER_AGENT.equals(request.getHeader("User-Agent"))) {
            recorded.add(info);
        }
        if (info.verb().equals("create") && info.apiGroup().equals("authorization.k8s.io") && info.resource().equals("selfsubjectrulesreviews")) {
            return rulesReview(request);
        }
        return delegate.dispatch(request);
    }

    private MockResponse rulesReview(RecordedRequest request) {
        SelfSubjectRulesReview review = json.unmarshal(request.getUtf8Body(), SelfSubjectRulesReview.class);
        var rules = ChartRbac.renderings().get("defaults").rulesIn(review.getSpec().getNamespace()).stream()
                .filter(r -> r.getNonResourceURLs().isEmpty())
                .map(r -> new ResourceRuleBuilder().withApiGroups(r.getApiGroups()).withResources(r.getResources())
                        .withResourceNames(r.getResourceNames()).withVerbs(r.getVerbs()).build())
                .toList();
        review.setStatus(new SubjectRulesReviewStatusBuilder().withIncomplete(false).withResourceRules(rules).build());
        return new MockResponse().setResponseCode(201).addHeader("Content-Type", "application/json").setBody(json.asJson(review));
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }

    /** The operator's requests so far, in order. */
    public List<ApiRequest> recorded() {
        return List.copyOf(recorded);
    }
}
