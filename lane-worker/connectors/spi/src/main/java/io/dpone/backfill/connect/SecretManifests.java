package io.dpone.backfill.connect;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
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
 * locally with the same connection settings. {@code data} is base64 as in the API; {@code stringData} is plain. A file
 * that is not valid YAML is reported by file, line and column only: the parser's own message quotes the line, which
 * may be the one holding a password.
 */
public final class SecretManifests {
    private static final YAMLMapper YAML = new YAMLMapper();

    private SecretManifests() {
    }

    /** Secret name to its key/value pairs, from every Secret document in the files. */
    public static Map<String, Map<String, String>> read(List<Path> files) throws IOException {
        Map<String, Map<String, String>> secrets = new HashMap<>();
        for (Path file : files) {
            try {
                readFile(file, secrets);
            } catch (JacksonException e) {
                throw notYaml(file, e);
            } catch (RuntimeException e) {
                // MappingIterator.hasNext wraps the parser's exception in an unchecked one.
                JacksonException cause = jacksonCause(e);
                if (cause == null) {
                    throw e;
                }
                throw notYaml(file, cause);
            }
        }
        return secrets;
    }

    private static void readFile(Path file, Map<String, Map<String, String>> secrets) throws IOException {
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

    /** Without the parser's exception as the cause: its message quotes the offending line. */
    private static IOException notYaml(Path file, JacksonException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return new IOException(file + ": not a valid YAML document" + where + " (the line is not shown: it may hold a credential)");
    }

    private static JacksonException jacksonCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JacksonException j) {
                return j;
            }
        }
        return null;
    }
}
