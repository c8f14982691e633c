package io.dpone.backfill.targets.mssql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL Server's documented grammar and limits that a rendered statement can break, checked on its text alone (no
 * server). Each rule names its source (docs/... pages are MicrosoftDocs/sql-docs's):
 * <ul>
 * <li><b>quoting</b>: a text splits into code, {@code '...'} / {@code N'...'} literals, {@code "..."} and
 * {@code [...]} delimited identifiers (the closing delimiter doubled inside), and comments, exactly as
 * mssql-jdbc's {@code ParameterUtils.scanSQLForChar} walks it (microsoft/mssql-jdbc
 * src/main/java/com/microsoft/sqlserver/jdbc/ParameterUtils.java). Every literal and identifier must be closed,
 * and a {@code ]} in code is a bracket that was not doubled (docs/relational-databases/databases/
 * database-identifiers.md: delimited identifiers, {@code ]} doubled inside brackets).</li>
 * <li><b>identifier length</b>: a bracketed identifier holds 1-128 characters (sysname; database-identifiers.md,
 * "Identifiers must contain from 1 through 128 characters"; docs/sql-server/maximum-capacity-specifications-for-
 * sql-server.md, "Bytes per ... identifier: 128 (Unicode)").</li>
 * <li><b>parentheses</b> balance outside literals and identifiers.</li>
 * <li><b>parameters</b>: at most 2,100 {@code ?} markers, counted where the driver counts them (outside literals,
 * identifiers and comments: scanSQLForChar above); the driver sends them as one RPC request, and
 * maximum-capacity-specifications-for-sql-server.md gives 2,100 parameters per stored procedure.</li>
 * <li><b>CONCAT</b>: 2 to 254 arguments per call (docs/t-sql/functions/concat-transact-sql.md: "requires a minimum
 * of two input values ... a maximum of 254 input values").</li>
 * <li><b>batch-first statements</b>: CREATE PROCEDURE / VIEW / FUNCTION / TRIGGER / SCHEMA / DEFAULT / RULE must be
 * the first statement of a batch (docs/t-sql/language-elements/sql-server-utilities-statements-go.md and
 * batches: "CREATE DEFAULT, CREATE FUNCTION, CREATE PROCEDURE, CREATE RULE, CREATE SCHEMA, CREATE TRIGGER, and
 * CREATE VIEW statements cannot be combined with other statements in a batch"); inside dynamic SQL
 * ({@code EXEC (N'...')}) they are their own batch, so literals are not searched.</li>
 * <li><b>no GO</b>: GO is a client (sqlcmd/SSMS) batch separator, not T-SQL; the driver sends it to the server, which
 * refuses it (sql-server-utilities-statements-go.md: "GO is not a Transact-SQL statement").</li>
 * </ul>
 */
public final class TsqlStatementRules {
    public static final int MAX_IDENTIFIER = 128;
    public static final int MAX_PARAMETERS = 2100;
    public static final int MAX_CONCAT_ARGUMENTS = 254;

    private static final Pattern BATCH_FIRST = Pattern.compile(
            "\\bCREATE\\s+(?:OR\\s+ALTER\\s+)?(PROCEDURE|PROC|VIEW|FUNCTION|TRIGGER|SCHEMA|DEFAULT|RULE)\\b");
    private static final Pattern GO_LINE = Pattern.compile("(?m)^\\s*GO\\s*(?:\\d+\\s*)?$");
    private static final Pattern CONCAT = Pattern.compile("\\bCONCAT\\s*\\(");

    private TsqlStatementRules() {
    }

    /** Every rule {@code sql} breaks, each as one line naming the rule; empty when it breaks none. */
    public static List<String> problems(String sql) {
        List<String> problems = new ArrayList<>();
        Scan scan = scan(sql, problems);
        for (String identifier : scan.identifiers) {
            if (identifier.isEmpty() || identifier.length() > MAX_IDENTIFIER) {
                problems.add("identifier length: [" + identifier + "] has " + identifier.length()
                        + " characters, SQL Server takes 1-" + MAX_IDENTIFIER);
            }
        }
        if (scan.parameters > MAX_PARAMETERS) {
            problems.add("parameters: " + scan.parameters + " markers, SQL Server takes at most " + MAX_PARAMETERS);
        }
        String code = scan.code.toString();
        concat(code, problems);
        String upper = code.toUpperCase(Locale.ROOT);
        Matcher first = BATCH_FIRST.matcher(upper);
        while (first.find()) {
            if (!upper.substring(0, first.start()).isBlank()) {
                problems.add("batch-first statement: CREATE " + first.group(1) + " is not the first statement of its batch");
            }
        }
        if (GO_LINE.matcher(upper).find()) {
            problems.add("no GO: a line holding only GO is a client batch separator the server refuses");
        }
        return problems;
    }

    /** The {@code ?} markers the driver will count in {@code sql}. */
    public static int parameterMarkers(String sql) {
        return scan(sql, new ArrayList<>()).parameters;
    }

    /** The bracketed identifiers of {@code sql}, unescaped. */
    public static List<String> identifiers(String sql) {
        return scan(sql, new ArrayList<>()).identifiers;
    }

    /**
     * What the server parses as code in {@code sql}: comments dropped, every literal and delimited identifier blanked,
     * so a name can be searched for text that escaped its quotes.
     */
    public static String code(String sql) {
        return scan(sql, new ArrayList<>()).code.toString();
    }

    /** The bodies of the {@code '...'} literals of {@code sql}, unescaped (the text an {@code EXEC (N'...')} runs). */
    public static List<String> literals(String sql) {
        return scan(sql, new ArrayList<>()).literals;
    }

    private record Scan(StringBuilder code, List<String> identifiers, List<String> literals, int parameters) {
    }

    /**
     * Walks {@code sql} as the driver does: code is kept (literals and identifiers replaced by a blank), identifiers
     * collected, markers counted, and unclosed literals or stray brackets reported.
     */
    private static Scan scan(String sql, List<String> problems) {
        StringBuilder code = new StringBuilder();
        List<String> identifiers = new ArrayList<>();
        List<String> literals = new ArrayList<>();
        int parameters = 0;
        int depth = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
                code.append(' ');
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    problems.add("quoting: a /* comment is never closed");
                    break;
                }
                i = end + 2;
                code.append(' ');
            } else if (c == '[' || c == '\'' || c == '"') {
                char close = c == '[' ? ']' : c;
                StringBuilder body = new StringBuilder();
                int j = i + 1;
                boolean closed = false;
                while (j < n) {
                    char d = sql.charAt(j++);
                    if (d == close) {
                        if (j < n && sql.charAt(j) == close) {
                            body.append(close);
                            j++;
                            continue;
                        }
                        closed = true;
                        break;
                    }
                    body.append(d);
                }
                if (!closed) {
                    problems.add("quoting: " + c + " opened at offset " + i + " is never closed");
                }
                (c == '\'' ? literals : identifiers).add(body.toString());
                code.append(c == '\'' ? " '' " : " [x] ");
                i = j;
            } else {
                if (c == ']') {
                    problems.add("quoting: ']' at offset " + i + " outside brackets (a ']' inside an identifier"
                            + " that was not doubled)");
                } else if (c == '?') {
                    parameters++;
                } else if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth < 0) {
                    problems.add("parentheses: ')' at offset " + i + " closes nothing");
                    depth = 0;
                }
                code.append(c);
                i++;
            }
        }
        if (depth > 0) {
            problems.add("parentheses: " + depth + " '(' never closed");
        }
        return new Scan(code, identifiers, literals, parameters);
    }

    /** Counts the top-level arguments of every CONCAT( ... ) in code whose literals are already blanked. */
    private static void concat(String code, List<String> problems) {
        Matcher m = CONCAT.matcher(code.toUpperCase(Locale.ROOT));
        while (m.find()) {
            int depth = 1;
            int arguments = 1;
            for (int i = m.end(); i < code.length() && depth > 0; i++) {
                char c = code.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                } else if (c == ',' && depth == 1) {
                    arguments++;
                }
            }
            if (arguments < 2 || arguments > MAX_CONCAT_ARGUMENTS) {
                problems.add("CONCAT: a call with " + arguments + " arguments, SQL Server takes 2-" + MAX_CONCAT_ARGUMENTS);
            }
        }
    }
}
