package io.seckill.ingress.rooms;

import io.seckill.redisstate.WaitingRoom;

/**
 * A sale's waiting room as this ingress last read it.
 * @param admitted how many buyers the room has admitted: those whose place is at most this
 * @param soldOut whether the sale had no unit left in Redis
 */
public record RoomNow(WaitingRoom.Room room, WaitingRoom.Line line, long admitted, boolean soldOut) {
}
