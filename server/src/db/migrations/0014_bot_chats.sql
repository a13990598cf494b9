-- Reserved: the change that needs this migration fills it in.
SELECT 1;
