package io.seckill.mysqlstate;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Optional;
import java.util.function.Predicate;

/** What a failed statement says about the database and about the statement's effect. */
public final class SqlFailures {

    private static final int ER_DUP_ENTRY = 1062;
    private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    private static final int ER_LOCK_DEADLOCK = 1213;
    private static final int ER_OPTION_PREVENTS_STATEMENT = 1290;

    private SqlFailures() {
    }

    /** InnoDB chose this transaction as a deadlock's victim and rolled it back: running it again is the cure. */
    public static boolean deadlock(Throwable failure) {
        return serverError(failure).filter(sql -> sql.getErrorCode() == ER_LOCK_DEADLOCK).isPresent();
    }

    /**
     * The database is down, unreachable, too slow or refusing writes for now: no connection within the
     * pool's wait (a transient error), a connection lost or refused (SQLSTATE class 08), a lock wait
     * given up, or a server running read-only. The request may succeed later; nothing in it was wrong.
     */
    public static boolean unavailable(Throwable failure) {
        return firstSqlError(
                        failure,
                        sql -> sql instanceof SQLTransientException
                                || sql instanceof SQLRecoverableException
                                || sql instanceof SQLNonTransientConnectionException
                                || "08".equals(sqlClass(sql))
                                || sql.getErrorCode() == ER_LOCK_WAIT_TIMEOUT
                                || sql.getErrorCode() == ER_OPTION_PREVENTS_STATEMENT)
                .isPresent();
    }

    /** Whose fault a failure is, which says what to do with the records that met it. */
    public enum Kind {
        /**
         * The database cannot work now (unreachable, read-only, interrupted, locked, out of resources): retry, the
         * records are fine.
         */
        DATABASE,
        /**
         * The statement's data is wrong (SQLSTATE 22 data, 23 integrity, 45 a trigger's refusal): the same record fails
         * again.
         */
        RECORD,
        /** No database error at all: a defect or a state the code did not expect. */
        UNEXPECTED
    }

    public static Kind kind(Throwable failure) {
        Optional<SQLException> sql = firstSqlError(failure);
        if (sql.isEmpty()) {
            return Kind.UNEXPECTED;
        }
        return switch (sqlClass(sql.get())) {
            case "22", "23", "45" -> Kind.RECORD;
            default -> Kind.DATABASE;
        };
    }

    /**
     * The server ran the statement and refused it, so an auto-committed statement left nothing behind:
     * bad data (SQLSTATE 22), a constraint other than a duplicate key (23), a refused statement (42),
     * a trigger's SIGNAL (45), a lock wait timeout or a deadlock (rolled back). A duplicate key is not
     * among them: it means the row, or another with the same key, is there. Anything else (a lost
     * connection, a timeout on the client's side) leaves the statement's effect unknown.
     */
    public static boolean refusedStatement(Throwable failure) {
        return serverError(failure).filter(sql -> {
            String sqlClass = sqlClass(sql);
            return switch (sqlClass) {
                case "22", "42", "45" -> true;
                case "23" -> sql.getErrorCode() != ER_DUP_ENTRY;
                default -> sql.getErrorCode() == ER_LOCK_WAIT_TIMEOUT || sql.getErrorCode() == ER_LOCK_DEADLOCK;
            };
        }).isPresent();
    }

    private static Optional<SQLException> firstSqlError(Throwable failure) {
        return firstSqlError(failure, sql -> true);
    }

    /** The first error in the chain that the server answered with (a vendor error code). */
    private static Optional<SQLException> serverError(Throwable failure) {
        return firstSqlError(failure, sql -> sql.getErrorCode() > 0);
    }

    private static Optional<SQLException> firstSqlError(Throwable failure, Predicate<SQLException> wanted) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && wanted.test(sql)) {
                return Optional.of(sql);
            }
        }
        return Optional.empty();
    }

    private static String sqlClass(SQLException sql) {
        return sql.getSQLState() == null || sql.getSQLState().length() < 2 ? "" : sql.getSQLState().substring(0, 2);
    }
}
