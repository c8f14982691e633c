package io.dpone.backfill.targets.mssql.doctor;

/**
 * One fact the permission probe reads for the campaign's database user, as one column of one SELECT: a role
 * membership, an effective permission (HAS_PERMS_BY_NAME counts ownership, role membership and permissions implied
 * by a higher scope, as SQL Server's permission check does), schema ownership, or a property of the live table that
 * decides whether a statement runs at all. 1 is held; 0 or NULL (not valid, not visible) is not.
 * Sources (MicrosoftDocs/sql-docs): docs/t-sql/functions/has-perms-by-name-transact-sql.md,
 * is-rolemember-transact-sql.md, is-srvrolemember-transact-sql.md, docs/relational-databases/system-catalog-views/
 * sys-schemas-transact-sql.md (principal_id: the schema's owner).
 */
enum MssqlPermissionFact {
    SYSADMIN("IS_SRVROLEMEMBER(N'sysadmin')", Subject.NONE),
    DB_OWNER("IS_ROLEMEMBER(N'db_owner')", Subject.NONE),
    DB_DDLADMIN("IS_ROLEMEMBER(N'db_ddladmin')", Subject.NONE),
    DATABASE_CREATE_TABLE("HAS_PERMS_BY_NAME(DB_NAME(), N'DATABASE', N'CREATE TABLE')", Subject.NONE),
    DATABASE_CREATE_SCHEMA("HAS_PERMS_BY_NAME(DB_NAME(), N'DATABASE', N'CREATE SCHEMA')", Subject.NONE),
    DATABASE_VIEW_DEFINITION("HAS_PERMS_BY_NAME(DB_NAME(), N'DATABASE', N'VIEW DEFINITION')", Subject.NONE),
    TARGET_SCHEMA_EXISTS("CASE WHEN SCHEMA_ID(?) IS NULL THEN 0 ELSE 1 END", Subject.TARGET_SCHEMA),
    /** The schema's owner is this user, or a role it is a member of (DBCC CHECKIDENT: "must own the schema"). */
    TARGET_SCHEMA_OWNED("(SELECT CASE WHEN s.principal_id = USER_ID() OR IS_ROLEMEMBER(USER_NAME(s.principal_id)) = 1"
            + " THEN 1 ELSE 0 END FROM sys.schemas AS s WHERE s.name = ?)", Subject.TARGET_SCHEMA),
    TARGET_SCHEMA_ALTER("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'ALTER')", Subject.TARGET_SCHEMA),
    TARGET_SCHEMA_SELECT("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'SELECT')", Subject.TARGET_SCHEMA),
    TARGET_SCHEMA_INSERT("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'INSERT')", Subject.TARGET_SCHEMA),
    TARGET_SCHEMA_CONTROL("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'CONTROL')", Subject.TARGET_SCHEMA),
    LIVE_ALTER("HAS_PERMS_BY_NAME(?, N'OBJECT', N'ALTER')", Subject.LIVE_TABLE),
    LIVE_SELECT("HAS_PERMS_BY_NAME(?, N'OBJECT', N'SELECT')", Subject.LIVE_TABLE),
    LIVE_INSERT("HAS_PERMS_BY_NAME(?, N'OBJECT', N'INSERT')", Subject.LIVE_TABLE),
    /** The swap runs DBCC CHECKIDENT on the shadow only when the table has an identity column. */
    LIVE_HAS_IDENTITY("OBJECTPROPERTY(OBJECT_ID(?), N'TableHasIdentity')", Subject.LIVE_TABLE),
    /** The swap re-issues the live table's object grants on the shadow only when it has some (that this user sees). */
    LIVE_HAS_GRANTS("CASE WHEN EXISTS (SELECT 1 FROM sys.database_permissions AS p WHERE p.class = 1"
            + " AND p.major_id = OBJECT_ID(?)) THEN 1 ELSE 0 END", Subject.LIVE_TABLE),
    /** The live table has an owner of its own (sys.objects.principal_id set): the swap gives the shadow that owner. */
    LIVE_HAS_OWNER("CASE WHEN (SELECT o.principal_id FROM sys.objects AS o WHERE o.object_id = OBJECT_ID(?)) IS NULL"
            + " THEN 0 ELSE 1 END", Subject.LIVE_TABLE),
    /**
     * ALTER AUTHORIZATION to that owner needs, besides TAKE OWNERSHIP, IMPERSONATE on the new owner unless it is this
     * user, or membership in it when it is a role (docs/t-sql/statements/alter-authorization-transact-sql.md).
     */
    LIVE_OWNER_GIVABLE("(SELECT CASE WHEN o.principal_id IS NULL OR o.principal_id = USER_ID()"
            + " OR HAS_PERMS_BY_NAME(USER_NAME(o.principal_id), N'USER', N'IMPERSONATE') = 1"
            + " OR IS_ROLEMEMBER(USER_NAME(o.principal_id)) = 1 THEN 1 ELSE 0 END FROM sys.objects AS o"
            + " WHERE o.object_id = OBJECT_ID(?))", Subject.LIVE_TABLE),
    STATE_SCHEMA_EXISTS("CASE WHEN SCHEMA_ID(?) IS NULL THEN 0 ELSE 1 END", Subject.STATE_SCHEMA),
    STATE_SCHEMA_ALTER("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'ALTER')", Subject.STATE_SCHEMA),
    STATE_SCHEMA_SELECT("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'SELECT')", Subject.STATE_SCHEMA),
    STATE_SCHEMA_INSERT("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'INSERT')", Subject.STATE_SCHEMA),
    STATE_SCHEMA_UPDATE("HAS_PERMS_BY_NAME(?, N'SCHEMA', N'UPDATE')", Subject.STATE_SCHEMA);

    /** What a fact's one parameter names. */
    enum Subject { NONE, TARGET_SCHEMA, LIVE_TABLE, STATE_SCHEMA }

    private final String expression;
    private final Subject subject;

    MssqlPermissionFact(String expression, Subject subject) {
        this.expression = expression;
        this.subject = subject;
    }

    String expression() {
        return expression;
    }

    Subject subject() {
        return subject;
    }

    /** The result column's name. */
    String column() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
