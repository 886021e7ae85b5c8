package io.seckill.schemas.events;

/** The field rules shared by every event; each failure names the field. */
final class EventChecks {

    private EventChecks() {
    }

    static void version(int actual, int supported) {
        if (actual != supported) {
            throw new InvalidEventException("unsupported schemaVersion " + actual + " (supported: " + supported + ")");
        }
    }

    /** The fields every order event carries. */
    static void order(String orderId, long skuId, String userId, int quantity) {
        orderId(orderId);
        positive("skuId", skuId);
        userId(userId);
        positive("quantity", quantity);
    }

    static void orderId(String orderId) {
        if (!OrderIdFormat.isValid(orderId)) {
            throw new InvalidEventException("orderId must be a lower-case UUID, was " + orderId);
        }
    }

    static void userId(String userId) {
        if (!UserIdFormat.isValid(userId)) {
            throw new InvalidEventException("userId must be " + UserIdFormat.DESCRIPTION + ", was " + userId);
        }
    }

    static void positive(String field, long value) {
        if (value <= 0) {
            throw new InvalidEventException(field + " must be positive, was " + value);
        }
    }

    static void present(String field, Object value) {
        if (value == null) {
            throw new InvalidEventException(field + " is missing");
        }
    }
}
