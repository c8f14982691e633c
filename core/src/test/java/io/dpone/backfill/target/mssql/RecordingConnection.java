package io.dpone.backfill.target.mssql;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A JDBC connection with no server that records every SQL text the adapter sends (prepared or plain) and the
 * parameters bound to it. Every query answers one row whose columns read as 0 / NULL, which is enough to drive the
 * adapter's statement paths; it proves what is sent, never what a server would answer.
 */
public final class RecordingConnection {
    /** One text sent, with its bound parameters by index (1-based). */
    public record Sent(String sql, TreeMap<Integer, Object> parameters) {
        public Object parameter(int index) {
            return parameters.get(index);
        }
    }

    private final List<Sent> sent = new ArrayList<>();
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
                        case "executeQuery", "getResultSet" -> oneRow();
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
                    if (a != null && a.length >= 1 && a[0] instanceof String sql) {
                        sent.add(new Sent(sql, new TreeMap<>()));
                    }
                    return switch (m.getName()) {
                        case "execute" -> false;
                        case "executeQuery", "getResultSet" -> oneRow();
                        case "executeUpdate" -> 1;
                        case "getUpdateCount" -> -1;
                        case "getMoreResults" -> false;
                        default -> null;
                    };
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
