// removed once the first panel lands
