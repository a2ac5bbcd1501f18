-- 0002 (PostgreSQL), as ../0002_action_deadline.sql: each logged action carries the
-- deadline it set for the next actor, and a trigger copies it to hands.action_deadline.
-- Logging an action is then ONE statement (atomic on its own, one round trip), and the log
-- records how much time every turn had.
ALTER TABLE hand_actions ADD COLUMN deadline DOUBLE PRECISION;

CREATE FUNCTION hand_actions_set_deadline() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE hands SET action_deadline = NEW.deadline WHERE id = NEW.hand_id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER hand_actions_set_deadline AFTER INSERT ON hand_actions
    FOR EACH ROW EXECUTE FUNCTION hand_actions_set_deadline();
