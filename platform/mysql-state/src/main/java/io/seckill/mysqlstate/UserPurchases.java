package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.USER_PURCHASES;

import io.seckill.schemas.db.tables.records.UserPurchasesRecord;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.InsertValuesStep3;
import org.jooq.impl.DSL;

/** {@code user_purchases}: the units each buyer holds of each SKU, which the per-buyer limit is checked against. */
public final class UserPurchases {

    /** What each of {@code buyers} holds of SKU {@code skuId} (absent: nothing), locked until {@code tx} ends. */
    public Map<String, Integer> lockHeld(DSLContext tx, long skuId, Collection<String> buyers) {
        return new HashMap<>(tx.select(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY)
                .from(USER_PURCHASES)
                .where(USER_PURCHASES.SKU_ID.eq(skuId))
                .and(USER_PURCHASES.USER_ID.in(buyers))
                .forUpdate()
                .fetchMap(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY));
    }

    /** Records what each buyer in {@code held} now holds of SKU {@code skuId}, in one statement. */
    public void record(DSLContext tx, long skuId, Map<String, Integer> held) {
        if (held.isEmpty()) {
            return;
        }
        InsertValuesStep3<UserPurchasesRecord, Long, String, Integer> insert =
                tx.insertInto(USER_PURCHASES, USER_PURCHASES.SKU_ID, USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY);
        for (Map.Entry<String, Integer> buyer : held.entrySet()) {
            insert = insert.values(skuId, buyer.getKey(), buyer.getValue());
        }
        insert.onDuplicateKeyUpdate().set(USER_PURCHASES.QUANTITY, DSL.excluded(USER_PURCHASES.QUANTITY)).execute();
    }

    /**
     * Takes {@code units} (by SKU, then buyer, each in the order given: the callers' lock order) off what buyers hold.
     */
    public void giveBack(DSLContext tx, Map<Long, Map<String, Integer>> units) {
        tx.batch(units.entrySet().stream()
                .flatMap(sku -> sku.getValue().entrySet().stream().map(buyer -> tx.update(USER_PURCHASES)
                        .set(USER_PURCHASES.QUANTITY, USER_PURCHASES.QUANTITY.minus(buyer.getValue()))
                        .where(USER_PURCHASES.SKU_ID.eq(sku.getKey()))
                        .and(USER_PURCHASES.USER_ID.eq(buyer.getKey()))))
                .toList()).execute();
    }
}
