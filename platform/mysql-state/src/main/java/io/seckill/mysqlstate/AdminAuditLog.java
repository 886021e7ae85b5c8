package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.ADMIN_AUDIT;

import java.time.Instant;
import java.util.List;
import org.jooq.DSLContext;

/** The owner of {@code admin_audit}: one row per admin action, only ever added. */
public final class AdminAuditLog {

    /**
     * @param action      e.g. {@code PUT /admin/v1/skus/42}
     * @param request     the request's body, or null
     * @param beforeState the target's state before (JSON), or null where the action has no stored target
     * @param afterState  the target's state after (JSON), or null likewise
     */
    public record Entry(
            Instant recordedAt,
            String admin,
            String address,
            String action,
            int status,
            String request,
            String beforeState,
            String afterState) {}

    public void record(DSLContext db, Entry entry) {
        db.insertInto(ADMIN_AUDIT)
                .set(ADMIN_AUDIT.RECORDED_AT, entry.recordedAt())
                .set(ADMIN_AUDIT.ADMIN, entry.admin())
                .set(ADMIN_AUDIT.ADDRESS, entry.address())
                .set(ADMIN_AUDIT.ACTION, entry.action())
                .set(ADMIN_AUDIT.STATUS, entry.status())
                .set(ADMIN_AUDIT.REQUEST, entry.request())
                .set(ADMIN_AUDIT.BEFORE_STATE, entry.beforeState())
                .set(ADMIN_AUDIT.AFTER_STATE, entry.afterState())
                .execute();
    }

    /** The newest {@code limit} entries, newest first. */
    public List<Entry> newest(DSLContext db, int limit) {
        return db.selectFrom(ADMIN_AUDIT)
                .orderBy(ADMIN_AUDIT.ID.desc())
                .limit(limit)
                .fetch(row -> new Entry(
                        row.getRecordedAt(),
                        row.getAdmin(),
                        row.getAddress(),
                        row.getAction(),
                        row.getStatus(),
                        row.getRequest(),
                        row.getBeforeState(),
                        row.getAfterState()));
    }
}
