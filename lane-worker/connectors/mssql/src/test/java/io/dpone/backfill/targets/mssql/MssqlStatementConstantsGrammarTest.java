package io.dpone.backfill.targets.mssql;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every fixed statement of the SQL Server adapter (each {@code static final String} of a class under
 * {@code io.dpone.backfill.targets.mssql} that starts like a T-SQL statement: doctor probes, catalog reads, session
 * and lock calls, digest reads) against {@link TsqlStatementRules}. Found on the class path, so a statement added
 * later is checked without a test change; statements built from names are covered by the per-family tests.
 */
class MssqlStatementConstantsGrammarTest {
    private static final Pattern STATEMENT = Pattern.compile(
            "^(SELECT|WITH|EXEC|DECLARE|IF|INSERT|UPDATE|DELETE|MERGE|ALTER|CREATE|DROP|SET|GRANT|DBCC|KILL)\\b.*",
            Pattern.DOTALL);

    @Test
    void everyFixedStatementOfTheAdapterObeysTheGrammar() throws Exception {
        List<String> checked = new ArrayList<>();
        for (Class<?> type : adapterClasses()) {
            for (Field f : type.getDeclaredFields()) {
                if (f.getType() != String.class || !Modifier.isStatic(f.getModifiers()) || !Modifier.isFinal(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                String sql = ((String) f.get(null)).strip();
                if (!STATEMENT.matcher(sql.toUpperCase(Locale.ROOT)).matches()) {
                    continue;
                }
                checked.add(type.getSimpleName() + "." + f.getName());
                assertThat(TsqlStatementRules.problems(sql)).as(type.getName() + "." + f.getName() + ": " + sql).isEmpty();
            }
        }
        // The doctor's probes, the catalog reads and the lock calls at least.
        assertThat(checked).hasSizeGreaterThan(20)
                .contains("MssqlAppLock.ACQUIRE", "MssqlCatalogObjects.INDEXES", "MssqlSwapRenamer.RENAME");
    }

    private static List<Class<?>> adapterClasses() throws URISyntaxException, java.io.IOException, ClassNotFoundException {
        Path root = Path.of(MssqlIdentifiers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("io/dpone/backfill/targets/mssql");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(p).toString().replace('/', '.').replace('\\', '.');
                classes.add(Class.forName(name.substring(0, name.length() - ".class".length()), false,
                        MssqlIdentifiers.class.getClassLoader()));
            }
        }
        return classes;
    }
}
