package io.dpone.backfill.operator.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mock API server's CRUD dispatcher with the API server's admission of one custom resource in front: every
 * create, update and patch (JSON merge or JSON patch) of it, main resource or {@code /status}, is judged by
 * {@link CampaignAdmission} against the old object; a write the API server would refuse gets its answer (422,
 * reason Invalid) and is recorded in {@link #refusals()}, so a test can fail on it even when the caller swallowed it.
 */
public final class AdmittingDispatcher extends KubernetesCrudDispatcher {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CampaignAdmission admission;
    private final Pattern resourcePath;
    private final List<String> refusals = new ArrayList<>();
    private static final Pattern PODS = Pattern.compile("^/api/v1/namespaces/[^/]+/pods(\\?.*)?$");
    private Status podRefusal;
    private Instant statusOutageUntil;
    private int statusOutageCode;
    private int statusOutages;

    public AdmittingDispatcher(CampaignAdmission admission, String plural) {
        this.admission = admission;
        this.resourcePath = Pattern.compile("^/apis/" + Pattern.quote(admission.apiVersion()) + "/namespaces/[^/]+/" + Pattern.quote(plural)
                + "(/(?<name>[^/?]+)(?<status>/status)?)?(\\?.*)?$");
    }

    /** The writes refused so far (method, path, reasons), oldest first; the list is emptied. */
    public synchronized List<String> takeRefusals() {
        List<String> taken = List.copyOf(refusals);
        refusals.clear();
        return taken;
    }

    public synchronized List<String> refusals() {
        return List.copyOf(refusals);
    }

    /**
     * From now on every pod create is refused as a ResourceQuota (403 Forbidden) or the pod validation (422 Invalid)
     * of a real cluster would refuse it, with that status code, reason and message; {@code null} admits them again.
     */
    public synchronized void refusePodCreates(Status refusal) {
        this.podRefusal = refusal;
    }

    @Override
    public MockResponse handleCreate(RecordedRequest request) {
        Status refusal;
        synchronized (this) {
            refusal = podRefusal;
        }
        if (refusal != null && PODS.matcher(request.getPath()).matches()) {
            try {
                return new MockResponse().setResponseCode(refusal.getCode()).setBody(JSON.writeValueAsString(refusal));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Matcher m = resourcePath.matcher(request.getPath());
        if (m.matches() && m.group("name") == null) {
            MockResponse refused = judge(request, () -> admission.create(read(body(request))));
            if (refused != null) {
                return refused;
            }
        }
        return super.handleCreate(request);
    }

    /**
     * Until {@code until}, every status write of the custom resource gets {@code code} (503: an API server
     * restarting or overloaded), as a real outage would answer it; nothing is recorded as a refusal.
     */
    public synchronized void failStatusWritesUntil(Instant until, int code) {
        this.statusOutageUntil = until;
        this.statusOutageCode = code;
    }

    private synchronized MockResponse outage(Matcher m) {
        if (m.matches() && m.group("status") != null && statusOutageUntil != null && Instant.now().isBefore(statusOutageUntil)) {
            statusOutages++;
            return new MockResponse().setResponseCode(statusOutageCode).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                    + "\"status\":\"Failure\",\"code\":" + statusOutageCode + ",\"reason\":\"ServiceUnavailable\","
                    + "\"message\":\"the server is currently unable to handle the request\"}");
        }
        return null;
    }

    /** How many status writes the outage answered. */
    public synchronized int statusOutages() {
        return statusOutages;
    }

    @Override
    public MockResponse handleUpdate(RecordedRequest request) {
        MockResponse answer = admitWrite(request, old -> read(body(request)));
        return answer != null ? answer : super.handleUpdate(request);
    }

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        MockResponse answer = admitWrite(request, old -> patched(old, request));
        return answer != null ? answer : super.handlePatch(request);
    }

    /**
     * The answer to a write of an existing object when the outage or admission gives one, else null (the CRUD
     * dispatcher then carries it out). {@code next} makes the written object from the old one (null: no verdict).
     */
    private MockResponse admitWrite(RecordedRequest request, UnaryOperator<JsonNode> next) {
        Matcher m = resourcePath.matcher(request.getPath());
        MockResponse down = outage(m);
        if (down != null || !m.matches() || m.group("name") == null) {
            return down;
        }
        JsonNode old = current(request.getPath(), m);
        JsonNode written = old == null ? null : next.apply(old);
        if (written == null) {
            return null;
        }
        return judge(request, () -> m.group("status") != null ? admission.updateStatus(written, old) : admission.update(written, old));
    }

    private MockResponse judge(RecordedRequest request, Supplier<List<String>> verdict) {
        List<String> errors;
        try {
            errors = verdict.get();
        } catch (RuntimeException e) {
            // A rule that does not compile or a body that is not JSON: the API server would refuse too; say why.
            errors = List.of("admission failed: " + e.getMessage());
        }
        if (errors.isEmpty()) {
            return null;
        }
        synchronized (this) {
            refusals.add(request.getMethod() + " " + request.getPath() + ": " + String.join("; ", errors));
        }
        Status status = new StatusBuilder().withApiVersion("v1").withKind("Status").withStatus("Failure").withCode(422)
                .withReason("Invalid").withMessage("BackfillCampaign is invalid: " + String.join(", ", errors)).build();
        try {
            return new MockResponse().setResponseCode(422).setBody(JSON.writeValueAsString(status));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode current(String path, Matcher m) {
        String objectPath = path.substring(0, m.start("name")) + m.group("name");
        MockResponse response = handleGet(objectPath);
        if (response.code() != 200 || response.getBody() == null) {
            return null;
        }
        return read(new String(response.getBody().getBytes(), StandardCharsets.UTF_8));
    }

    /** The object a patch would produce; null for patch types the mock does not apply either (it answers those). */
    private static JsonNode patched(JsonNode old, RecordedRequest request) {
        String type = String.valueOf(request.getHeader("Content-Type"));
        JsonNode patch = read(body(request));
        if (type.startsWith("application/json-patch+json")) {
            return JsonPatch.apply(patch, old);
        }
        if (type.startsWith("application/merge-patch+json")) {
            return mergePatch(old, patch);
        }
        return null;
    }

    /** RFC 7386. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? target.deepCopy() : JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), mergePatch(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }

    private static String body(RecordedRequest request) {
        return new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + json, e);
        }
    }
}
