package io.dpone.backfill.source.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The scan the server picks for one chunk's query: {@code EXPLAIN (FORMAT JSON)} of the SELECT a lane's COPY runs,
 * planned and never executed, so it reads no table page (ADR 0055). COPY plans its query as a plain SELECT does.
 */
final class PostgresScanChoice {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection source;
    private final String qualifiedTable;

    PostgresScanChoice(Connection source, String schema, String table) {
        this.source = source;
        this.qualifiedTable = PostgresIdentifiers.qualified(schema, table);
    }

    HeapScan of(String predicate) throws SQLException {
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN (FORMAT JSON) SELECT * FROM " + qualifiedTable + " WHERE " + predicate)) {
            rs.next();
            JsonNode plan = JSON.readTree(rs.getString(1)).path(0).path("Plan");
            return HeapScan.ofNodeType(tableScan(plan));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("the server's EXPLAIN output is not JSON: " + e.getMessage(), e);
        }
    }

    /** The node type of the plan's scan of the table: the first node, depth first, that names a relation. */
    private static String tableScan(JsonNode node) {
        if (node.has("Relation Name")) {
            return node.path("Node Type").asText();
        }
        for (JsonNode child : node.path("Plans")) {
            String found = tableScan(child);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
