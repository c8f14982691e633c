package io.dpone.backfill.operator.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the API server decides about a write of a custom resource of one CRD: its metadata name (custom resources'
 * names must be DNS-1123 subdomains: apiextensions-apiserver/pkg/registry/customresource/validator.go,
 * {@code validation.NameIsDNSSubdomain}), apiVersion and kind, its OpenAPI schema ({@link StructuralSchema}) and its CEL
 * rules ({@link CelRules}). The status subresource is honoured as apiextensions-apiserver's strategy.go and
 * status_strategy.go do: a write of the main resource keeps the old status, a write of {@code /status} keeps the old
 * spec and metadata, and both are validated in full, CEL rules with {@code oldSelf} included.
 */
public final class CampaignAdmission {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private final JsonNode schema;
    private final String apiVersion;
    private final String kind;

    private CampaignAdmission(JsonNode crd) {
        JsonNode version = crd.path("spec").path("versions").get(0);
        this.schema = version.path("schema").path("openAPIV3Schema");
        this.apiVersion = crd.path("spec").path("group").asText() + "/" + version.path("name").asText();
        this.kind = crd.path("spec").path("names").path("kind").asText();
    }

    public static CampaignAdmission of(Path crd) {
        try {
            return new CampaignAdmission(YAML.readTree(crd.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CRD " + crd, e);
        }
    }

    public String apiVersion() {
        return apiVersion;
    }

    /** The API server's verdict on a create: empty when admitted, else one line per refusal. */
    public List<String> create(JsonNode object) {
        return validate(object, null);
    }

    /** An update of the main resource: the status cannot change through it (the old one is kept). */
    public List<String> update(JsonNode object, JsonNode old) {
        return validate(withStatusOf(object, old), old);
    }

    /** An update through {@code /status}: only the status changes; the rest is the old object's. */
    public List<String> updateStatus(JsonNode object, JsonNode old) {
        return validate(withStatusOf(old, object), old);
    }

    /** {@code body} with {@code statusFrom}'s status (none when it has none). */
    private static ObjectNode withStatusOf(JsonNode body, JsonNode statusFrom) {
        ObjectNode next = body.deepCopy();
        next.remove("status");
        if (statusFrom.has("status")) {
            next.set("status", statusFrom.get("status"));
        }
        return next;
    }

    private List<String> validate(JsonNode object, JsonNode old) {
        List<String> errors = new ArrayList<>();
        if (!apiVersion.equals(object.path("apiVersion").asText())) {
            errors.add("apiVersion: Invalid value: must be " + apiVersion);
        }
        if (!kind.equals(object.path("kind").asText())) {
            errors.add("kind: Invalid value: must be " + kind);
        }
        String name = object.path("metadata").path("name").asText("");
        if (name.isEmpty() || name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            errors.add("metadata.name: Invalid value: \"" + name + "\": a lowercase RFC 1123 subdomain must consist of lower case"
                    + " alphanumeric characters, '-' or '.'");
        }
        ObjectNode body = object.deepCopy();
        body.remove(List.of("apiVersion", "kind", "metadata"));
        StructuralSchema.validate(body, schema, "", errors);
        if (errors.isEmpty()) {
            // The server runs CEL only on a value that passed the schema (types are then what the rules assume).
            CelRules.validate(object, old, schema, "", errors);
        }
        return errors;
    }
}
