-- 000027: the region that national-format phone numbers in a material are
-- read in (issue 14): the country its subject claims, else the tenant's
-- policy default_region, fixed when the material is declared so the worker
-- that extracts uploaded bytes later reads them the same way. Null when
-- neither says: such numbers are then only found in international format.
ALTER TABLE material ADD COLUMN phone_region text;
ALTER TABLE material ADD CONSTRAINT material_phone_region_check CHECK (phone_region IS NULL OR phone_region ~ '^[A-Z]{2}$');
