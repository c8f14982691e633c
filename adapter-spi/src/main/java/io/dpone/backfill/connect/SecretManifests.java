package io.dpone.backfill.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Kubernetes Secret manifests (the same files a user applies to the cluster) so the CLI can run a campaign
 * locally with the same connection settings. {@code data} is base64 as in the API; {@code stringData} is plain.
 */
public final class SecretManifests {
    private static final YAMLMapper YAML = new YAMLMapper();

    private SecretManifests() {
    }

    /** Secret name to its key/value pairs, from every Secret document in the files. */
    public static Map<String, Map<String, String>> read(List<Path> files) throws IOException {
        Map<String, Map<String, String>> secrets = new HashMap<>();
        for (Path file : files) {
            try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
                while (docs.hasNext()) {
                    JsonNode doc = docs.next();
                    if (doc == null || !"Secret".equals(doc.path("kind").asText())) {
                        continue;
                    }
                    String name = doc.path("metadata").path("name").asText(null);
                    if (name == null) {
                        throw new IOException(file + ": a Secret without metadata.name");
                    }
                    Map<String, String> values = new LinkedHashMap<>();
                    for (Iterator<Map.Entry<String, JsonNode>> it = doc.path("data").fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        try {
                            values.put(e.getKey(), new String(Base64.getDecoder().decode(e.getValue().asText().trim()), StandardCharsets.UTF_8));
                        } catch (IllegalArgumentException bad) {
                            throw new IOException(file + ": Secret " + name + " data." + e.getKey() + " is not base64");
                        }
                    }
                    for (Iterator<Map.Entry<String, JsonNode>> it = doc.path("stringData").fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        values.put(e.getKey(), e.getValue().asText());
                    }
                    secrets.put(name, values);
                }
            }
        }
        return secrets;
    }
}
