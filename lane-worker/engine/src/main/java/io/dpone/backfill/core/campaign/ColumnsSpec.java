package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Which source column loads which target column (issue 27): explicit pairs first, then a naming rule. */
public class ColumnsSpec {
    @JsonPropertyDescription("How a target column is named after a source column not in map: exact (default),"
            + " case-insensitive, snake-to-pascal (album_id loads AlbumId) or snake-to-camel (album_id loads albumId).")
    private ColumnNaming naming;
    @JsonPropertyDescription("Explicit pairs, source column: target column; they come before the naming rule."
            + " uniqueKey and chunk.column name source columns.")
    private Map<String, String> map;

    public ColumnNaming getNaming() {
        return naming;
    }

    public void setNaming(ColumnNaming naming) {
        this.naming = naming;
    }

    public Map<String, String> getMap() {
        return map;
    }

    public void setMap(Map<String, String> map) {
        this.map = map;
    }

    ColumnsSpec copy() {
        ColumnsSpec c = new ColumnsSpec();
        c.naming = naming;
        // Sorted: the canonical spec (run key) must not depend on the order the pairs were written in.
        c.map = map == null ? null : new TreeMap<>(map);
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnsSpec c && naming == c.naming && Objects.equals(map, c.map);
    }

    @Override
    public int hashCode() {
        return Objects.hash(naming, map);
    }
}
