"""The repositories behind `storage.Database`, one per concern (mixins over `DatabaseCore`)."""
