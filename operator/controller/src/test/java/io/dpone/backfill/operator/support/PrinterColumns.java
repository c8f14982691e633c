package io.dpone.backfill.operator.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code kubectl get bfc} prints for a campaign: the committed CRD's printer columns, evaluated over the object
 * as the API server stored it. Only the two path forms the CRD uses: {@code .a.b.c} and
 * {@code .a.conditions[?(@.type=="T")].field}. The mock API server does not serve the Table format kubectl asks
 * for, so tests print the row this way.
 */
public final class PrinterColumns {
    private static final Pattern FILTER = Pattern.compile("^(.*)\\[\\?\\(@\\.(\\w+)==\"([^\"]+)\"\\)\\]\\.(\\w+)$");

    private PrinterColumns() {
    }

    /** The header and one row, columns separated by three spaces, NAME first. */
    public static String table(Object campaign) throws IOException {
        JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(MockCluster.CRD));
        JsonNode columns = crd.path("spec").path("versions").get(0).path("additionalPrinterColumns");
        JsonNode object = Serialization.jsonMapper().valueToTree(campaign);
        List<String> header = new ArrayList<>(List.of("NAME"));
        List<String> row = new ArrayList<>(List.of(object.path("metadata").path("name").asText()));
        for (JsonNode column : columns) {
            header.add(column.path("name").asText().toUpperCase(java.util.Locale.ROOT));
            row.add(column.path("name").asText().equals("Age") ? "<age>" : value(object, column.path("jsonPath").asText()));
        }
        return String.join("   ", header) + "\n" + String.join("   ", row);
    }

    private static String value(JsonNode object, String path) {
        Matcher m = FILTER.matcher(path);
        if (m.matches()) {
            for (JsonNode item : at(object, m.group(1))) {
                if (m.group(3).equals(item.path(m.group(2)).asText())) {
                    return item.path(m.group(4)).asText();
                }
            }
            return "";
        }
        JsonNode v = at(object, path);
        return v.isMissingNode() || v.isNull() ? "" : v.asText();
    }

    private static JsonNode at(JsonNode node, String path) {
        JsonNode n = node;
        for (String part : path.substring(1).split("\\.")) {
            n = n.path(part);
        }
        return n;
    }
}
