-- The role each device pushed as in each shared trip (issue 36, "A device trusts nothing it
-- pulls"). A change names its device, which anyone who reads the log can copy; the role that
-- pushed it (`author`) is written by the server. A device id is bound, per trip, to the role of
-- its first change in the log, and a later change naming it under another role is set aside on
-- every device alike: a grantee cannot make an edit in another traveller's name, which that
-- traveller's own device would skip as its own.
CREATE TABLE sync_device_roles (
    trip_id INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    device  TEXT    NOT NULL,
    role    TEXT    NOT NULL,
    PRIMARY KEY (trip_id, device)
) WITHOUT ROWID;
