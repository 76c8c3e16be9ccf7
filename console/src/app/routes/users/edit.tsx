import { ComingSoonRoute } from '@/app/routes/coming-soon';
export const UserNewRoute = ComingSoonRoute;
export const UserEditRoute = ComingSoonRoute;
