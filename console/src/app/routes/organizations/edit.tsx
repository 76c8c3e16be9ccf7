import { ComingSoonRoute } from '@/app/routes/coming-soon';
export const OrganizationNewRoute = ComingSoonRoute;
export const OrganizationEditRoute = ComingSoonRoute;
