package io.dpone.backfill.targets.mssql;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A JDBC connection with no server that records every SQL text the adapter sends (prepared or plain) and the
 * parameters bound to it. A query answers the rows scripted for it with {@link #answer} (matched by a fragment of
 * its text), else one row whose columns read as 0 / NULL, which is enough to drive the adapter's statement paths; it
 * proves what is sent, never what a server would answer.
 */
public final class RecordingConnection {
    /** One text sent, with its bound parameters by index (1-based). */
    public record Sent(String sql, TreeMap<Integer, Object> parameters) {
        public Object parameter(int index) {
            return parameters.get(index);
        }

        /**
         * The rules of {@link TsqlStatementRules} this text breaks, and a binding that does not match its markers
         * (the driver refuses a statement with an unbound marker or an index past the last one).
         */
        public List<String> problems() {
            List<String> problems = new ArrayList<>(TsqlStatementRules.problems(sql));
            int markers = TsqlStatementRules.parameterMarkers(sql);
            if (parameters.isEmpty() ? markers > 0 : (parameters.firstKey() != 1 || parameters.lastKey() != markers
                    || parameters.size() != markers)) {
                problems.add("binding: parameters " + parameters.keySet() + " bound to " + markers + " markers");
            }
            return problems;
        }
    }

    private final List<Sent> sent = new ArrayList<>();
    private final Map<String, List<Map<String, Object>>> answers = new LinkedHashMap<>();
    private final Map<Map.Entry<String, Object>, List<Map<String, Object>>> boundAnswers = new LinkedHashMap<>();
    private final Connection connection;

    public RecordingConnection() {
        connection = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (p, m, a) -> switch (m.getName()) {
                    case "prepareStatement" -> prepared((String) a[0]);
                    case "createStatement" -> plain();
                    case "getAutoCommit", "isValid" -> true;
                    case "unwrap" -> null;
                    case "isWrapperFor", "isClosed", "isReadOnly" -> false;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == a[0];
                    case "toString" -> "RecordingConnection";
                    default -> null;
                });
    }

    /** Queries whose text contains {@code fragment} answer {@code rows} (column label to value, in column order). */
    public RecordingConnection answer(String fragment, List<Map<String, Object>> rows) {
        answers.put(fragment, rows);
        return this;
    }

    /** Prepared queries whose text contains {@code fragment} and that bound {@code parameter} answer {@code rows}. */
    public RecordingConnection answer(String fragment, Object parameter, List<Map<String, Object>> rows) {
        boundAnswers.put(java.util.Map.entry(fragment, parameter), rows);
        return this;
    }

    public Connection connection() {
        return connection;
    }

    public List<Sent> sent() {
        return List.copyOf(sent);
    }

    private PreparedStatement prepared(String sql) {
        Sent s = new Sent(sql, new TreeMap<>());
        sent.add(s);
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                    String name = m.getName();
                    if (name.startsWith("set") && a != null && a.length >= 2 && a[0] instanceof Integer index) {
                        s.parameters().put(index, a[1]);
                        return null;
                    }
                    return switch (name) {
                        case "execute" -> true;
                        case "executeQuery", "getResultSet" -> bound(s);
                        case "executeUpdate" -> 1;
                        case "executeBatch" -> new int[0];
                        case "getUpdateCount" -> -1;
                        case "getMoreResults" -> false;
                        default -> null;
                    };
                });
    }

    private Statement plain() {
        return (Statement) Proxy.newProxyInstance(Statement.class.getClassLoader(), new Class<?>[] {Statement.class},
                (p, m, a) -> {
                    String sql = a != null && a.length >= 1 && a[0] instanceof String text ? text : null;
                    if (sql != null) {
                        sent.add(new Sent(sql, new TreeMap<>()));
                    }
                    return switch (m.getName()) {
                        case "execute" -> false;
                        case "executeQuery" -> rows(sql);
                        case "getResultSet" -> oneRow();
                        case "executeUpdate" -> 1;
                        case "getUpdateCount" -> -1;
                        case "getMoreResults" -> false;
                        default -> null;
                    };
                });
    }

    private ResultSet bound(Sent s) {
        for (Map.Entry<Map.Entry<String, Object>, List<Map<String, Object>>> a : boundAnswers.entrySet()) {
            if (s.sql().contains(a.getKey().getKey()) && s.parameters().containsValue(a.getKey().getValue())) {
                return scripted(a.getValue());
            }
        }
        return rows(s.sql());
    }

    private ResultSet rows(String sql) {
        for (Map.Entry<String, List<Map<String, Object>>> a : answers.entrySet()) {
            if (sql != null && sql.contains(a.getKey())) {
                return scripted(a.getValue());
            }
        }
        return oneRow();
    }

    private static ResultSet scripted(List<Map<String, Object>> rows) {
        int[] at = {-1};
        Object[] last = {null};
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                (p, m, a) -> {
                    if (m.getName().equals("next")) {
                        return ++at[0] < rows.size();
                    }
                    if (m.getName().equals("wasNull")) {
                        return last[0] == null;
                    }
                    // getObject(column, type) reads the scripted value as it is.
                    if (!m.getName().startsWith("get") || a == null || a.length != 1 && !m.getName().equals("getObject")) {
                        return null;
                    }
                    Map<String, Object> row = rows.get(at[0]);
                    Object value = a[0] instanceof Integer index ? new ArrayList<>(row.values()).get(index - 1) : row.get(a[0]);
                    last[0] = value;
                    Class<?> type = m.getReturnType();
                    if (type == int.class) {
                        return value == null ? 0 : ((Number) value).intValue();
                    }
                    if (type == long.class) {
                        return value == null ? 0L : ((Number) value).longValue();
                    }
                    if (type == boolean.class) {
                        return value != null && (Boolean) value;
                    }
                    if (type == String.class) {
                        return value == null ? null : value.toString();
                    }
                    return value;
                });
    }

    private static ResultSet oneRow() {
        boolean[] read = {false};
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                (p, m, a) -> switch (m.getName()) {
                    case "next" -> {
                        boolean first = !read[0];
                        read[0] = true;
                        yield first;
                    }
                    case "getInt", "getLong", "getShort", "getByte" -> m.getReturnType() == long.class ? (Object) 0L
                            : m.getReturnType() == short.class ? (Object) (short) 0
                            : m.getReturnType() == byte.class ? (Object) (byte) 0 : (Object) 0;
                    case "getBoolean", "wasNull" -> m.getName().equals("wasNull");
                    default -> null;
                });
    }
}
